import { PROBLEMS, type ProblemBody, type ProblemCode, type ProblemFieldError } from './problems.js';

/**
 * A REST problem the server answers, made only from a catalog code (RFC 9457). `detail` defaults
 * to the catalog's summary; field-level problems are listed in `errors`.
 */
export class ProblemError extends Error {
  readonly code: ProblemCode;
  readonly status: number;
  readonly detail: string;
  readonly errors: readonly ProblemFieldError[] | undefined;

  constructor(code: ProblemCode, detail?: string, errors?: readonly ProblemFieldError[]) {
    const entry = PROBLEMS[code];
    super(detail ?? entry.summary);
    this.name = 'ProblemError';
    this.code = code;
    this.status = entry.status;
    this.detail = detail ?? entry.summary;
    this.errors = errors;
  }

  /**
   * The same problem made without Error's constructor, for a problem that is an answer, never a
   * fault (a refused body): nothing reads its stack, and V8's Error construction costs even when it
   * captures none (`Error.stackTraceLimit = 0` still leaves the runtime call; 2.3% of the server's
   * samples in the bench's `rest-400` profile; made and rendered, 1.8 µs became 1.2 µs). It is still
   * a ProblemError (and an Error) to `instanceof`, with its `name` and `message`, and it may be
   * thrown; it has no `stack`.
   */
  static answer(code: ProblemCode, detail?: string, errors?: readonly ProblemFieldError[]): ProblemError {
    const entry = PROBLEMS[code];
    const problem = Object.create(ProblemError.prototype) as {
      -readonly [K in 'name' | 'message' | 'code' | 'status' | 'detail' | 'errors']: ProblemError[K];
    };
    problem.name = 'ProblemError';
    problem.message = detail ?? entry.summary;
    problem.code = code;
    problem.status = entry.status;
    problem.detail = detail ?? entry.summary;
    problem.errors = errors;
    return problem as ProblemError;
  }

  toBody(instance: string): ProblemBody {
    const entry = PROBLEMS[this.code];
    return {
      type: `/problems/${entry.slug}`,
      title: entry.title,
      status: entry.status,
      detail: this.detail,
      instance,
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }

  /**
   * `JSON.stringify(this.toBody(instance))`, byte for byte, without building the body: the catalog's
   * part (type, title, status) is serialised once per code. Servers answer with this.
   */
  toJson(instance: string): string {
    const errors = this.errors ? `,"errors":${JSON.stringify(this.errors)}` : '';
    return `${PROBLEM_HEADS[this.code]}${JSON.stringify(this.detail)},"instance":${JSON.stringify(instance)}${errors}}`;
  }
}

/** `{"type":…,"title":…,"status":…,"detail":` of each catalog entry, in toBody's order. */
const PROBLEM_HEADS = Object.fromEntries(
  (Object.keys(PROBLEMS) as ProblemCode[]).map((code) => {
    const entry = PROBLEMS[code];
    return [
      code,
      `{"type":${JSON.stringify(`/problems/${entry.slug}`)},"title":${JSON.stringify(entry.title)},"status":${entry.status},"detail":`,
    ];
  }),
) as Readonly<Record<ProblemCode, string>>;
