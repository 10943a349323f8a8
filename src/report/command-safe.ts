// Text the runner cannot take for a workflow command: what both front ends write goes through it.

/**
 * What may stand before a `::` that the runner still reads as a command: it trims lines with .NET's TrimStart(),
 * which strips every Unicode white space (JavaScript's \s misses U+0085 NEL), and the invisible format
 * characters (zero-width spaces and joiners, word joiner, BOM, soft hyphen, Mongolian vowel separator) are
 * defused too, as no reader can see them.
 */
const COMMAND_LEAD = /^([\s\u0085\u00ad\u180e\u200b-\u200d\u2060\ufeff]*)::/gmu

/**
 * Makes text the runner cannot take for a workflow command: server text (a model id, an error message)
 * could otherwise carry a line break followed by `::set-output` or `::stop-commands`, or a `##[` command,
 * which the runner reads anywhere in a line. The runner also breaks lines at a lone carriage return.
 */
export function commandSafe(text: string): string {
  return text.replace(/##\[/g, '## [').replace(COMMAND_LEAD, '$1: :')
}
