import { ProblemError, type BodyValidationResult, type FieldProblem } from '@gatehouse/contract';

/**
 * The validated body, or the catalog problem: 400 missing-required-field when a required field is
 * omitted or null (its detail is exactly the contract's message; every missing field is listed),
 * 422 invalid-field-value for a present but unacceptable value.
 */
export function validBodyOrThrow(result: BodyValidationResult): Record<string, unknown> {
  if (result.ok) return result.value;
  throw refusedBody(result);
}

/** The problem of a refused body (see validBodyOrThrow), to throw or to send. */
export function refusedBody(result: Exclude<BodyValidationResult, { ok: true }>): ProblemError {
  if (result.kind === 'missing') {
    // Every missing field, then whatever else is wrong with the body, so one round trip tells all.
    const errors = [
      ...result.fields.map((f) => fieldError('missing_required_field', f)),
      ...result.invalid.map((f) => fieldError('invalid_field_value', f)),
    ];
    return withoutStack(() => new ProblemError('missing_required_field', first(result.fields).message, errors));
  }
  const detail =
    result.fields.length === 1
      ? first(result.fields).message
      : `${result.fields.length} fields have unacceptable values; see errors.`;
  return withoutStack(
    () =>
      new ProblemError(
        'invalid_field_value',
        detail,
        result.fields.map((f) => fieldError('invalid_field_value', f)),
      ),
  );
}

/**
 * A refused body is an answer, not a fault: nothing reads its stack, and capturing one is the
 * costliest step of answering the 400 (a tenth of the request's CPU time, measured by bench/).
 */
function withoutStack<T>(make: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function first(fields: readonly FieldProblem[]): FieldProblem {
  const f = fields[0];
  if (!f) throw new Error('a refused body names at least one field');
  return f;
}

function fieldError(code: 'missing_required_field' | 'invalid_field_value', f: FieldProblem) {
  return { code, field: f.field, pointer: f.pointer, detail: f.message } as const;
}
