// Types of pg-cluster.mjs for the TypeScript benchmarks.
export interface Cluster {
  url: string;
  stop(): void;
}
export function findPostgresBin(): string | null;
export function freePort(): Promise<number>;
export function startCluster(bin: string, settings?: string[]): Promise<Cluster | { error: string }>;
