import { useEffect, useState } from 'react';

/** The current time in epoch milliseconds, refreshed every `everyMs` (30 s by default), so "In Progress" and "Just now" move on. */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}
