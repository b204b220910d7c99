import { parseArgs } from 'node:util';
import { nearest } from './nearest.js';

/**
 * Each command of `gatehouse` is declared once, as data: node:util parseArgs reads its options from
 * the declaration, and its `--help` (and its line in `gatehouse --help`) is written from the same
 * declaration, so the help cannot describe an option the command does not take, or miss one.
 */

/** A mistake in how the command was called; exit code 2. */
export class UsageError extends Error {}

/** One option of a command. */
export interface OptionDeclaration {
  readonly type: 'string' | 'boolean';
  /** May be given more than once (each value kept). */
  readonly multiple?: boolean;
  /** The placeholder of a string option's value in the help: `ID`, `LIST`, `DURATION`. */
  readonly value?: string;
  /** The command refuses to run without it (shown without brackets). */
  readonly required?: boolean;
  readonly help: string;
}

export interface CommandDeclaration {
  /** The words that call it: `clients add`, `migrate`. */
  readonly name: string;
  /** What it does, in one line of `gatehouse --help`. */
  readonly summary: string;
  /** Its positional arguments, each as the help names it (`ID`); exactly these many are taken. */
  readonly positionals?: readonly string[];
  readonly options: Readonly<Record<string, OptionDeclaration>>;
  /** More lines for its own --help. */
  readonly notes?: readonly string[];
}

/** What parseArgs answers for `D`'s options: each value typed by its declaration. */
type Parsed<D extends CommandDeclaration> = ReturnType<
  typeof parseArgs<{ args: string[]; options: D['options']; allowPositionals: true; strict: true }>
>;

/**
 * The options and positionals of one call of `declaration`, typed by its options. A missing
 * required option or a wrong number of positionals is a UsageError, as is an unknown option.
 */
export function parseCommand<const D extends CommandDeclaration>(declaration: D, args: string[]): Parsed<D> {
  const parsed = parseDeclared(declaration, args);
  const missing = Object.entries(declaration.options)
    .filter(
      ([option, { required }]) => required === true && (parsed.values as Record<string, unknown>)[option] === undefined,
    )
    .map(([option]) => `--${option}`);
  if (missing.length > 0) throw new UsageError(`${declaration.name} needs ${missing.join(' and ')}`);
  const expected = declaration.positionals ?? [];
  if (parsed.positionals.length !== expected.length)
    throw new UsageError(
      expected.length === 0
        ? `${declaration.name} takes no arguments`
        : `${declaration.name} takes ${expected.length === 1 ? 'one argument' : 'arguments'}: ${expected.join(' ')}`,
    );
  return parsed;
}

/** parseArgs over the declaration; an unknown option is a UsageError naming the nearest declared one. */
function parseDeclared<const D extends CommandDeclaration>(declaration: D, args: string[]): Parsed<D> {
  try {
    return parseArgs({ args, options: declaration.options, allowPositionals: true, strict: true }) as Parsed<D>;
  } catch (error) {
    const given =
      (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && /'(-[^']*)'/.exec(String(error));
    if (!given) throw error;
    const suggestion = nearest(
      given[1] as string,
      ['help', ...Object.keys(declaration.options)].map((o) => `--${o}`),
    );
    throw new UsageError(
      `unknown option '${given[1]}' for ${declaration.name}${suggestion === undefined ? '' : `; did you mean '${suggestion}'?`}`,
    );
  }
}

/** `clients add --id ID --name NAME [--public] [--redirect-uri URI]...`. */
export function synopsisOf(declaration: CommandDeclaration, { brief = false } = {}): string {
  const words = [declaration.name, ...(declaration.positionals ?? [])];
  let optional = false;
  for (const [option, spec] of Object.entries(declaration.options)) {
    const word = `--${option}${spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : ''}`;
    if (spec.required) words.push(word);
    else if (brief) optional = true;
    else words.push(`[${word}]${spec.multiple ? '...' : ''}`);
  }
  if (optional) words.push('[OPTIONS]');
  return words.join(' ');
}

/** The --help of one command: its synopsis, what it does, each option, and its notes. */
export function helpOf(declaration: CommandDeclaration): string {
  const rows = Object.entries(declaration.options).map(([option, spec]) => {
    const word = `--${option}${spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : ''}`;
    const extra = [spec.required ? 'required' : '', spec.multiple ? 'repeatable' : ''].filter((s) => s !== '');
    return [word, `${spec.help}${extra.length > 0 ? ` (${extra.join(', ')})` : ''}`] as const;
  });
  rows.push(['--help', 'this help']);
  const width = Math.max(...rows.map(([word]) => word.length)) + 2;
  return [
    wrapped(`Usage: gatehouse ${synopsisOf(declaration)}`, 100),
    '',
    declaration.summary,
    ...(declaration.notes ?? []),
    '',
    'Options:',
    ...rows.map(([word, help]) => `  ${word.padEnd(width)}${help}`),
  ].join('\n');
}

/** `text` in lines of at most `width` characters, broken between words, continued with an indent. */
function wrapped(text: string, width: number): string {
  const lines = [''];
  for (const word of text.split(' ')) {
    const line = lines.at(-1) as string;
    if (line !== '' && line.length + 1 + word.length > width) lines.push(`    ${word}`);
    else lines[lines.length - 1] = line === '' ? word : `${line} ${word}`;
  }
  return lines.join('\n');
}

/** One line per command: its brief synopsis and what it does (`gatehouse --help`, `gatehouse clients --help`). */
export function summaryOf(declarations: readonly CommandDeclaration[]): string {
  const synopses = declarations.map((d) => synopsisOf(d, { brief: true }));
  const width = Math.max(...synopses.map((s) => s.length)) + 2;
  return declarations.map((d, i) => `  ${(synopses[i] as string).padEnd(width)}${d.summary}`).join('\n');
}

/** Whether `--help` (or `-h`) is among the arguments (before a `--`, after which nothing is an option). */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** Splits a LIST argument (comma- or space-separated). */
export function listOf(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(/[\s,]+/).filter((s) => s !== '');
}

/** The usage error of an unknown (sub)command, naming the nearest known one when there is one. */
export function unknownCommand(
  what: string,
  given: string | undefined,
  declared: readonly (string | CommandDeclaration)[],
): UsageError {
  const known = declared.map((d) => (typeof d === 'string' ? d : (d.name.split(' ').at(-1) as string)));
  const suggestion = given === undefined ? undefined : nearest(given, known);
  return new UsageError(
    `unknown ${what} '${given ?? ''}'${suggestion === undefined ? '' : `; did you mean '${suggestion}'?`}`,
  );
}
