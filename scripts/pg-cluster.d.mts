// Types of pg-cluster.mjs for the TypeScript benchmarks and tests.
export interface Server {
  url: string;
  stop(): void;
}
export interface Cluster extends Server {
  port: number;
}
export function findPostgresBin(): string | null;
export function freePort(): Promise<number>;
export function startCluster(bin: string, settings?: string[]): Promise<Cluster | { error: string }>;
export function startReplica(bin: string, primary: Cluster, settings?: string[]): Promise<Server | { error: string }>;
