import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';

/**
 * What a user or an API token may do (CONTRACT §7): an `admin` everything, users, tokens and the
 * account's settings included; a `dispatcher` everything about employees, tasks, zones, rules and
 * reports; a `viewer` reads only.
 */
export const ROLES = ['admin', 'dispatcher', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a route needs, declared on every route of `/v6/api` and `/workspace/api` in its
 * `config.permission` and checked by one hook (`requirePermission`) before the body is read:
 * - `public`: no one signed in (signing in);
 * - `view`: every role: reads, and the signed-in user's own session and password;
 * - `edit`: dispatchers and admins: changes of employees, tasks, zones, rules and reports;
 * - `admin`: admins only: users, tokens and the account's settings.
 */
export const PERMISSIONS = ['public', 'view', 'edit', 'admin'] as const;
export type Permission = (typeof PERMISSIONS)[number];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (see src/accounts/roles.ts). */
    permission?: Permission;
  }
}

const roleRank: Record<Role, number> = { viewer: 1, dispatcher: 2, admin: 3 };
const permissionRank: Record<Exclude<Permission, 'public'>, number> = { view: 1, edit: 2, admin: 3 };

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** A role read from the store; anything unexpected reads as the least one. */
export function roleOf(value: string): Role {
  return isRole(value) ? value : 'viewer';
}

export function permits(role: Role, permission: Permission): boolean {
  return permission === 'public' || roleRank[role] >= permissionRank[permission];
}

/** The route's declared permission; a route that declares none is for admins only (closed by default). */
export function permissionOf(request: FastifyRequest): Permission {
  return request.routeOptions.config.permission ?? 'admin';
}

/** 403 code 1025 when the principal's role may not call the route; runs after authentication. */
export function requirePermission(request: FastifyRequest): void {
  const permission = permissionOf(request);
  if (permission === 'public') return;
  const { role } = request.principal;
  if (!permits(role, permission)) {
    throw new ApiError('NOT_PERMITTED', `the ${role} role may not do this: it needs ${permission === 'admin' ? 'an admin' : 'a dispatcher or an admin'}`);
  }
}
