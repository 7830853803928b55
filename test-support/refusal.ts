import { ApiError } from '../lib/server/api-error';

/** The ApiError `promise` rejects with; any other outcome fails the test (another error is rethrown). */
export async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a refusal (an ApiError), but the call succeeded');
}
