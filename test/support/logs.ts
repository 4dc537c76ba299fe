import { config, configure, type LogLevel } from '../../shared/core/config';

/**
 * Tests run with LOG_LEVEL=SILENT (global-setup.ts): a passing `npm test`
 * prints no line of the service. A test that expects lines captures them
 * here, at the level it names, and asserts them: everything the process
 * writes to stdout and stderr meanwhile (where Powertools writes log lines
 * and EMF documents) is kept instead of printed, and lines that are JSON are parsed.
 */
export interface CapturedOutput {
  text(): string;
  /** Every JSON line written, in order. */
  lines(): Record<string, any>[];
  restore(): void;
}

export function captureOutput(level: LogLevel = 'DEBUG'): CapturedOutput {
  const previous = config();
  configure({ ...previous, logLevel: level });
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
    restore: () => {
      spies.forEach((spy) => spy.mockRestore());
      configure({ ...config(), logLevel: previous.logLevel });
    },
  };
}

/** Runs `run` with the service's lines captured at `level`, and returns what it answered and the JSON lines it wrote. */
export async function logsDuring<T>(
  run: () => Promise<T>,
  level: LogLevel = 'DEBUG',
): Promise<{ result: T; lines: Record<string, any>[] }> {
  const output = captureOutput(level);
  try {
    const result = await run();
    return { result, lines: output.lines() };
  } finally {
    output.restore();
  }
}
