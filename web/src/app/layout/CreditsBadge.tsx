// Balance badge (pulses 400 ms when the balance drops) and the selection cost badge (red when it
// exceeds the balance, orange otherwise).
import { CREDITS_PULSE_MS } from '@folio/shared';
import { useEffect, useRef, useState } from 'react';
import { useStore } from '../../lib/store.js';
import { selectionCostStore } from '../../stores/selection-cost.js';

export function CreditsBadge({ credits }: { credits: number }) {
  const previous = useRef(credits);
  const [pulse, setPulse] = useState(false);
  const cost = useStore(selectionCostStore, (c) => c);

  useEffect(() => {
    const dropped = credits < previous.current;
    previous.current = credits;
    if (!dropped) return;
    setPulse(true);
    const timer = setTimeout(() => setPulse(false), CREDITS_PULSE_MS);
    return () => clearTimeout(timer);
  }, [credits]);

  return (
    <span className="inline-flex items-center gap-1.5">
      {/* Screen readers hear what the numbers mean: "Balance: 10 credits", "Selected files cost: −3". */}
      <span className="sr-only">Balance:</span>
      <span
        data-testid="credits-balance"
        data-pulse={pulse}
        className={`whitespace-nowrap rounded-full bg-indigo-100 px-2.5 py-1 text-xs font-semibold text-indigo-800 dark:bg-indigo-900/60 dark:text-indigo-200 ${pulse ? 'animate-pulse ring-2 ring-indigo-400 motion-reduce:animate-none' : ''}`}
      >
        {credits} credits
      </span>
      {cost !== null && cost > 0 ? (
        <>
          <span className="sr-only">Selected files cost:</span>
          {/* orange-700: white text on it reaches 4.5:1 (orange-500 did not). */}
          <span
            data-testid="selection-cost"
            className={`whitespace-nowrap rounded-full px-2.5 py-1 text-xs font-semibold text-white ${cost > credits ? 'bg-red-600' : 'bg-orange-700'}`}
          >
            −{cost}
          </span>
          <span className="sr-only">credits</span>
        </>
      ) : null}
    </span>
  );
}
