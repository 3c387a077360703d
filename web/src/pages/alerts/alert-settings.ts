/**
 * Whether alerts sound and show a browser notification: per user, kept in this browser's
 * localStorage (a setting of the desk the dispatcher sits at, not of the account). Sound is on
 * at first; notifications start off, since turning them on asks the browser's permission.
 */
export interface AlertSettings {
  sound: boolean;
  notifications: boolean;
}

const DEFAULTS: AlertSettings = { sound: true, notifications: false };

const keyOf = (userID: number) => `lokator.alerts.${userID}`;

export function readAlertSettings(userID: number): AlertSettings {
  try {
    const stored = JSON.parse(localStorage.getItem(keyOf(userID)) ?? 'null') as Partial<AlertSettings> | null;
    return { sound: stored?.sound ?? DEFAULTS.sound, notifications: stored?.notifications ?? DEFAULTS.notifications };
  } catch {
    return DEFAULTS;
  }
}

export function saveAlertSettings(userID: number, settings: AlertSettings): void {
  try {
    localStorage.setItem(keyOf(userID), JSON.stringify(settings));
  } catch {
    // A browser that keeps nothing (private mode with storage off) keeps the choice for this tab only.
  }
}
