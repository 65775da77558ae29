/**
 * The Map floor's line splitter: hands each NDJSON line of a watch response to `onLine` as a string,
 * cutting at newlines without copying a chunk more than once (a line split across chunks is joined).
 * `onLine` returns true to stop reading. Shared by the benchmarks whose floor is "each line parsed and
 * kept in a Map", so they measure the same floor.
 */
export function onWatchLines(onLine: (line: string) => boolean): (chunk: Buffer) => void {
  let tail: Buffer | undefined;
  let stopped = false;
  return (c: Buffer) => {
    if (stopped) return;
    let s = 0;
    for (let j = c.indexOf(10); j !== -1; j = c.indexOf(10, s)) {
      const line = tail ? Buffer.concat([tail, c.subarray(0, j)]).toString('utf8') : c.toString('utf8', s, j);
      tail = undefined;
      s = j + 1;
      if (onLine(line)) {
        stopped = true;
        return;
      }
    }
    tail = s < c.length ? (tail ? Buffer.concat([tail, c.subarray(s)]) : c.subarray(s)) : undefined;
  };
}
