import { ProblemError } from '@gatehouse/contract';

/**
 * Input an operator got wrong (CLI, demo setup, and the admin API to come); the message says what to
 * fix. Its catalog code, `invalid_operator_input`, is what an HTTP surface answers with it.
 */
export class OperatorInputError extends ProblemError {
  constructor(message: string) {
    super('invalid_operator_input', message);
    this.name = 'OperatorInputError';
  }
}
