import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApiRoute } from './api-routes';
import { methodsAt } from './route-methods';

const route = (method: ApiRoute['method'], path: string): ApiRoute => ({
  method,
  path,
  summary: '',
  access: 'viewer',
  success: { status: 200, description: '', schema: z.object({}) },
  errors: [],
});

describe('methodsAt', () => {
  const routes = [
    route('GET', '/api/jobs'),
    route('POST', '/api/jobs'),
    route('GET', '/api/jobs/{id}'),
    route('POST', '/api/jobs/{id}'),
    route('GET', '/api/jobs/counts'),
    route('POST', '/api/things/{a}/{b}/actions'),
  ];

  it('gives the methods of the template the path matches, HEAD with GET and OPTIONS always', () => {
    expect(methodsAt('/api/jobs', routes)).toEqual(['GET', 'POST', 'HEAD', 'OPTIONS']);
    expect(methodsAt('/api/jobs/7', routes)).toEqual(['GET', 'POST', 'HEAD', 'OPTIONS']);
    expect(methodsAt('/api/things/x/y/actions', routes)).toEqual(['POST', 'OPTIONS']);
  });

  it('prefers the literal segment over a parameter, as the router does', () => {
    expect(methodsAt('/api/jobs/counts', routes)).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });

  it('keeps an encoded slash inside its segment and matches no empty segment', () => {
    expect(methodsAt('/api/jobs/a%2Fb', routes)).toEqual(['GET', 'POST', 'HEAD', 'OPTIONS']);
    expect(methodsAt('/api/jobs/', routes)).toBeNull();
    expect(methodsAt('/api/things/x//actions', routes)).toBeNull();
  });

  it('is null for a path no route has', () => {
    expect(methodsAt('/api/jobs/7/more', routes)).toBeNull();
    expect(methodsAt('/api/nothing', routes)).toBeNull();
    expect(methodsAt('/api', routes)).toBeNull();
  });

  it('covers the real route table: the groups route answers GET only, the action route POST only', () => {
    expect(methodsAt('/api/groups')).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(methodsAt('/api/groups/g/partitions/t/0/actions')).toEqual(['POST', 'OPTIONS']);
  });
});
