import { refusedBody, type BodyValidationResult } from '@gatehouse/contract';

/**
 * The validated body, or the catalog problem: 400 missing-required-field when a required field is
 * omitted or null (its detail is exactly the contract's message; every missing field is listed),
 * 422 invalid-field-value for a present but unacceptable value (the contract's refusedBody).
 */
export function validBodyOrThrow(result: BodyValidationResult): Record<string, unknown> {
  if (result.ok) return result.value;
  throw refusedBody(result);
}
