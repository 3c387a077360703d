let context: AudioContext | null = null;

/**
 * A short two-note chime made with WebAudio (no sound file to load). Browsers let a page make
 * sound only after the user has interacted with it; before that this stays silent.
 */
export function playAlertTone(): void {
  try {
    context ??= new AudioContext();
    const start = context.currentTime;
    for (const [i, frequency] of [880, 1320].entries()) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      const at = start + i * 0.18;
      oscillator.type = 'sine';
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.25, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.16);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(at);
      oscillator.stop(at + 0.17);
    }
  } catch {
    // No audio in this browser: the bell still counts.
  }
}
