/** `n` with its noun in agreement: `cuantos(1, 'número reservado', 'números reservados')` → «1 número reservado», never «número(s)». */
export function cuantos(n: number, uno: string, varios: string): string {
  return `${n} ${n === 1 ? uno : varios}`;
}
