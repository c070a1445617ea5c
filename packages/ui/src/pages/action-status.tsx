import { useState } from 'preact/hooks';

export interface ActionStatus {
  readonly message: string | undefined;
  readonly failed: boolean;
  /** Runs an action and reports how it went: what it says on success, the gateway's words on failure. */
  run(action: () => Promise<string>): Promise<void>;
}

/** The outcome of the last button a person pressed on a page, announced to screen readers. */
export function useActionStatus(): ActionStatus {
  const [state, setState] = useState<{ message: string | undefined; failed: boolean }>({ message: undefined, failed: false });
  return {
    ...state,
    async run(action) {
      try {
        setState({ message: await action(), failed: false });
      } catch (error) {
        setState({ message: error instanceof Error ? error.message : String(error), failed: true });
      }
    },
  };
}

export function StatusLine({ status }: { status: ActionStatus }) {
  return (
    <p class={status.failed ? 'error' : 'note'} role={status.failed ? 'alert' : 'status'}>
      {status.message ?? ''}
    </p>
  );
}
