/** Calls `fn` once calls have stopped for `ms`; `cancel` drops a pending call. */
export function debounce(fn: () => void, ms: number): { call: () => void; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    call: () => {
      clearTimeout(timer);
      timer = setTimeout(fn, ms);
    },
    cancel: () => clearTimeout(timer),
  };
}
