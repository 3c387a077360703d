import { useEffect, useState } from 'preact/hooks';

/** The time now, renewed every `everyMs`: what "5 min ago" and the states of a quiet fleet are judged against. */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
