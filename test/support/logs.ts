/**
 * Everything the process writes to stdout and stderr while capturing: where
 * Powertools writes log lines and EMF documents. Lines that are JSON are parsed.
 */
export interface CapturedOutput {
  text(): string;
  /** Every JSON line written, in order. */
  lines(): Record<string, any>[];
  restore(): void;
}

export function captureOutput(): CapturedOutput {
  const chunks: string[] = [];
  const spies = [process.stdout, process.stderr].map((stream) =>
    jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    }),
  );
  const text = () => chunks.join('');
  return {
    text,
    lines: () =>
      text()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, any>),
    restore: () => spies.forEach((spy) => spy.mockRestore()),
  };
}
