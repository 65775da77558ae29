/**
 * Stop on SIGTERM / SIGINT, as controller-runtime's `SetupSignalHandler`: the first signal aborts
 * the returned signal (the manager then drains); a second one exits the process at once with code 1,
 * for when a drain hangs. Invariant: `remove()` takes both listeners off the process again.
 */
export interface SignalHandlers {
  readonly signal: AbortSignal;
  remove(): void;
}

/** Returns a signal that aborts on the first SIGTERM or SIGINT; a second one exits the process. */
export function installSignalHandlers(): SignalHandlers {
  const ctl = new AbortController();
  const onSignal = (name: NodeJS.Signals): void => {
    if (ctl.signal.aborted) process.exit(1);
    ctl.abort(new Error(`received ${name}`));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return Object.freeze({
    signal: ctl.signal,
    remove: () => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
    },
  });
}
