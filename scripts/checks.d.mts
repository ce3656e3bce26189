/** Types of scripts/checks.mjs, for its unit test. */
import type { ESLint } from 'eslint';
import type ts from 'typescript';

export const TSCONFIGS: readonly string[];
export interface ProjectProgram {
  config: string;
  program: ts.Program | undefined;
  problems: ts.Diagnostic[];
}
export function programsOf(dir: string, configs?: readonly string[]): Promise<ProjectProgram[]>;
export function typeErrors(dir: string, programs: readonly ProjectProgram[], say?: (line: string) => void): Promise<{ config: string; count: number; text: string }[]>;
export function lintBatches(dir: string, eslint: ESLint, depth?: number): Promise<string[][]>;
export function lint(dir: string, programs: readonly ProjectProgram[], say?: (line: string) => void): Promise<{ results: ESLint.LintResult[]; text: string; errors: number }>;
export function checkVerdicts(output: string, code: number | string | null): { name: string; ok: boolean; note: string }[];
