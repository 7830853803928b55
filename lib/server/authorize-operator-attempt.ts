import type { Database } from '../db';
import { ZPartitionRouteParams } from '../schemas/common';
import { routeParams } from './api-response';
import type { Principal } from './auth/access';
import { checkAccess } from './auth/request-auth';
import { recordRefusedAttempt } from './request-operator-action';

// Apart from request-operator-action.ts so that module stays free of the request's session lookup (which
// needs the dashboard's server-only database): the worker's integration tests import it.

/**
 * The operator-role check of the actions route: the caller's principal, or the refusal thrown (401, 403). A
 * 403 of a known caller is audited first (recordRefusedAttempt).
 */
export async function authorizeOperatorAttempt(
  db: Database,
  request: Request,
  params: Promise<Record<string, string>>,
  /** The cluster the request names (request-cluster.ts), or null when it names none that is configured. */
  cluster: string | null,
): Promise<Principal> {
  const access = await checkAccess(request, 'operator');
  if (access.ok) return access.principal;
  if (access.who !== null) {
    await recordRefusedAttempt(db, {
      who: access.who,
      refusal: access.refusal,
      target:
        cluster === null
          ? null
          : await routeParams(ZPartitionRouteParams, params).then(
              (target) => ({ cluster, ...target }),
              () => null,
            ),
      body: await request.json().catch(() => null),
    });
  }
  throw access.refusal;
}
