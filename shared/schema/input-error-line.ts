/** `file: field "judge.model": is missing (fix: ...)`, the shape of every input error assay prints. */
export function inputErrorLine(file: string, field: string, problem: string, fix: string): string {
  return `${file}: ${field === '' ? '' : `field ${field}: `}${problem} (fix: ${fix})`;
}
