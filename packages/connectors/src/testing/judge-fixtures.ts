/**
 * What the judges built from public code share: the code a piece of evidence comes from, and an answer
 * shape written by us as a fixture from it (values ours, keys and nesting the source's).
 */

/** A piece of public code, by its id in the public code index (read, never copied). */
export interface CodeSource {
  /** Public code id. */
  codeId: string;
  /** What the code is. */
  file: string;
}

/** An answer shape as a fixture; `inferred` names what the source does not pin down. */
export interface AnswerFixture {
  id: string;
  operation: string;
  source: CodeSource;
  finding: string;
  inferred?: string[];
  answer: unknown;
}
