const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** A duration such as `90`, `45s`, `15m`, `12h` or `30d`, in seconds. */
export function parseDuration(text: string): number {
  const match = /^(\d{1,9})([smhd]?)$/.exec(text.trim());
  if (!match)
    throw new Error(`'${text}' is not a duration; use a number of seconds or a number followed by s, m, h or d`);
  return Number(match[1]) * (UNIT_SECONDS[match[2] || 's'] ?? 1);
}
