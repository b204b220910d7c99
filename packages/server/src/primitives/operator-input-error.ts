import { ProblemError } from '@gatehouse/contract';

/** The catalog codes of operator input: a broken rule, an unknown name, or a name already taken. */
export type OperatorInputCode = 'invalid_operator_input' | 'not_found' | 'conflict' | 'organization_domain_public';

/**
 * Input an operator got wrong (CLI, demo setup, admin API); the message says what to fix. Its
 * catalog code is what an HTTP surface answers with it: `invalid_operator_input` (422) by default,
 * `not_found` (404) for something that does not exist, `conflict` (409) for a name already taken.
 * The CLI answers every one the same way (exit 1, "refused").
 */
export class OperatorInputError extends ProblemError {
  constructor(message: string, code: OperatorInputCode = 'invalid_operator_input') {
    super(code, message);
    this.name = 'OperatorInputError';
  }
}
