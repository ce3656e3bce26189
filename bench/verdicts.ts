/** The verdicts of the benchmarks' outputs, picked out for bench/tableSuite.ts's summary (kept apart so a unit test reads it without running the suite). */

/**
 * The verdict lines of a bench's output, as `PASS  what: measured (budget …)`: analysisBench and
 * compareBench print them so; tableBench prints Markdown table rows (| what | target | measured |
 * PASS |) under a `### shape: …` heading, kept as the heading's first word.
 */
export function verdictLines(output: string): string[] {
  const out: string[] = [];
  let shape = '';
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    const heading = /^###\s+([\w-]+)/u.exec(line);
    if (heading) shape = `${heading[1] ?? ''}: `;
    if (/^(PASS|FAIL)\b/u.test(line)) out.push(line);
    const cells = line.startsWith('|') ? line.slice(1, -1).split('|').map((c) => c.trim()) : [];
    const verdict = /^(?:\*\*)?(PASS|FAIL)(?:\*\*)?$/u.exec(cells[3] ?? '')?.[1];
    if (cells.length === 4 && verdict) out.push(`${verdict}  ${shape}${cells[0] ?? ''}: ${cells[2] ?? ''} (budget ${cells[1] ?? ''})`);
  }
  return out;
}
