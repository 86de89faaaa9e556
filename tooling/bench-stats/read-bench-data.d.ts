/** `<dir>/<base>` or, when only that exists, `<dir>/<base>.gz`; undefined when neither does. */
export declare function benchFile(dir: string, base: string): string | undefined;
/** The text of a benchmark file, gunzipped when its name ends in `.gz`. */
export declare function readBenchText(file: string): string;
/** The parsed lines of a JSONL benchmark file (plain or `.gz`), blank lines skipped; a line that is not JSON throws, naming the file and line. */
export declare function readJsonLines<T>(file: string): T[];
