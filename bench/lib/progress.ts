/** Progress goes to stderr, so the figures on stdout can be kept apart. */
export const progress = (message: string) => void process.stderr.write(`· ${message}\n`);

/** A duration as seconds with one decimal: "2.5 s". */
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
