// Reads what the official MCP conformance suite (0.2) prints for `--requirements <revision>` and scores it against
// a baseline of expected failures: one reading for the client and the server runners.

/**
 * @param {string} output the suite's whole output
 * @param {ReadonlyMap<string, string>} expected scenario -> why it is expected to fail
 */
export function scoreRequirementsRun(output, expected) {
  // Scenarios listed after "Not scored for <revision>" (extensions, pending ones) do not count for the revision.
  const [scored = '', unscoredPart = ''] = output.split(/\nNot scored for /);
  const unscored = new Set([...unscoredPart.matchAll(/^\s+[✓✗] (\S+)/gm)].map((match) => match[1]));
  const rows = [];
  const counts = { passed: 0, failed: 0, expected: 0, stale: 0, unscored: unscored.size };
  for (const match of scored.matchAll(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed/gm)) {
    const [, mark, scenario] = match;
    if (unscored.has(scenario)) continue;
    const ok = mark === '✓';
    const reason = expected.get(scenario);
    if (ok) counts.passed += 1;
    else if (reason === undefined) counts.failed += 1;
    else counts.expected += 1;
    if (ok && reason !== undefined) counts.stale += 1;
    const verdict = ok ? (reason === undefined ? 'pass' : 'STALE (passes but is listed as expected to fail)') : reason === undefined ? 'FAIL' : `expected failure: ${reason}`;
    rows.push({ mark, scenario, verdict });
  }
  if (rows.length === 0) throw new Error(`the conformance suite reported no scenarios:\n${output.slice(-2000)}`);
  return { rows, counts };
}
