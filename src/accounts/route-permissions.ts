import type { RouteOptions } from 'fastify';
import { ErrorBody } from '../http/route-types.js';
import type { Permission } from './roles.js';

/** A route as the server has it: its method, URL and declared permission (undefined: none declared). */
export interface DeclaredRoute {
  method: string;
  url: string;
  permission: Permission | undefined;
}

/** Where the role is checked: every route under these declares its permission (test/accounts/route-permissions.test.ts). */
export const CHECKED_PREFIXES = ['/v6/api/', '/workspace/api/'] as const;

const needs: Record<Permission, string> = {
  public: 'Anyone: no sign-in needed.',
  view: 'Every role: admin, dispatcher and viewer.',
  edit: 'Role: dispatcher or admin (a viewer’s call is 403 code 1025).',
  admin: 'Role: admin (a dispatcher’s or viewer’s call is 403 code 1025).',
};

/**
 * Records every route as it is added (the server's `onRoute` hook), for the test that finds
 * routes without a declared permission; and says in each checked route's OpenAPI description which
 * roles may call it, with the 403 answer where a role may not.
 */
export class RoutePermissions {
  readonly routes: DeclaredRoute[] = [];

  readonly declare = (route: RouteOptions): void => {
    const permission = route.config?.permission;
    for (const method of [route.method].flat()) this.routes.push({ method, url: route.url, permission });
    const schema = route.schema as { description?: string; response?: Record<string, unknown>; hide?: boolean } | undefined;
    if (!permission || !schema || schema.hide || !CHECKED_PREFIXES.some((prefix) => route.url.startsWith(prefix))) return;
    schema.description = schema.description ? `${schema.description}\n\n${needs[permission]}` : needs[permission];
    if ((permission === 'edit' || permission === 'admin') && schema.response && !schema.response['403']) schema.response['403'] = ErrorBody;
  };
}
