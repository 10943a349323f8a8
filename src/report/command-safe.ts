// Text the runner cannot take for a workflow command: what both front ends write goes through it.

/**
 * What may stand before a `::` the runner still reads as a command: .NET's TrimStart() strips all Unicode white
 * space (\s misses U+0085 NEL); invisible format characters are defused too, as no reader can see them.
 */
const COMMAND_LEAD = /^([\s\u0085\u00ad\u180e\u200b-\u200d\u2060\ufeff]*)::/gmu

/** Server text could carry a line break then `::stop-commands`, or a `##[`, which the runner reads anywhere in a line. */
export function commandSafe(text: string): string {
  return text.replace(/##\[/g, '## [').replace(COMMAND_LEAD, '$1: :')
}
