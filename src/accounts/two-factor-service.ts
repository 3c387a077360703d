import type { AuditRecorder } from '../audit/audit.js';
import { ApiError, invalidField } from '../http/errors.js';
import type { Database } from '../store/database.js';
import { actorOf } from './audit-actor.js';
import type { Session } from './session-service.js';
import { checkSecondFactor, newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpStepOf, totpUri } from './two-factor.js';
import { disableTotp, enableTotp, endSetupOnly, findTwoFactor, replaceRecoveryCodes, setPendingSecret, unusedRecoveryCodes } from './two-factor-store.js';

/**
 * A workspace user's own second factor: set up with a QR code confirmed by one code, which gives
 * ten one-time recovery codes; turned off with a code. Each change is in the audit log.
 */
export class TwoFactorService {
  constructor(
    private readonly database: Database,
    private readonly audit: AuditRecorder,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Whether the user has it on, whether the account requires it, and how many recovery codes are left. */
  async status(session: Session): Promise<{ enabled: boolean; required: boolean; recoveryCodesLeft: number }> {
    const { account, userID } = userOf(session);
    const row = await findTwoFactor(this.database.db, account.id, userID);
    const enabled = Boolean(row?.totp_secret);
    return {
      enabled,
      required: account.settings.security?.twoFactorRequired === true,
      recoveryCodesLeft: enabled ? await unusedRecoveryCodes(this.database.db, account.id, userID) : 0,
    };
  }

  /** A new secret to scan, kept pending until a code confirms it (a new setup replaces an unconfirmed one). */
  async beginSetup(session: Session): Promise<{ secret: string; uri: string }> {
    const { account, userID } = userOf(session);
    const row = await findTwoFactor(this.database.db, account.id, userID);
    if (row?.totp_secret) throw new ApiError('CONFLICT', 'two-factor sign-in is on already; turn it off first');
    const secret = newTotpSecret();
    await setPendingSecret(this.database.db, account.id, userID, secret);
    return { secret, uri: totpUri(secret, `Lokator (${account.name})`, session.login) };
  }

  /** Confirms the pending secret with a code from the app; the ten recovery codes, shown this once. */
  async enable(session: Session, code: string, address: string): Promise<{ recoveryCodes: string[] }> {
    const { account, userID } = userOf(session);
    const now = this.clock();
    const row = await findTwoFactor(this.database.db, account.id, userID);
    if (!row?.totp_pending_secret || row.totp_secret) throw new ApiError('CONFLICT', 'no two-factor setup is under way; begin one first');
    const secret = row.totp_pending_secret;
    const step = totpStepOf(secret, code, now);
    if (step === null) throw invalidField('code', 'is not the code the app shows now');
    const recoveryCodes = newRecoveryCodes();
    await this.database.transaction(async (tx) => {
      await enableTotp(tx, account.id, userID, secret, step, now);
      await replaceRecoveryCodes(tx, account.id, userID, recoveryCodes.map(recoveryCodeHash));
      await endSetupOnly(tx, account.id, userID);
      await this.audit.recordAs(tx, account.id, actorOf(session.principal), address, {
        kind: 'twoFactor.enable',
        objectId: userID,
        changes: { totp: { before: false, after: true } },
      });
    });
    return { recoveryCodes };
  }

  /** Turns it off with a current code or a recovery code; refused while the account requires it. */
  async disable(session: Session, code: string, address: string): Promise<void> {
    const { account, userID } = userOf(session);
    if (account.settings.security?.twoFactorRequired === true) throw new ApiError('CONFLICT', 'the account requires two-factor sign-in');
    const row = await findTwoFactor(this.database.db, account.id, userID);
    if (!row?.totp_secret) throw new ApiError('CONFLICT', 'two-factor sign-in is off');
    const secret = row.totp_secret;
    await this.database.transaction(async (tx) => {
      const used = await checkSecondFactor(tx, { accountId: account.id, userId: userID, secret }, code, this.clock());
      if (!used) throw invalidField('code', 'is neither the current code nor an unused recovery code');
      await disableTotp(tx, account.id, userID);
      await replaceRecoveryCodes(tx, account.id, userID, []);
      await this.audit.recordAs(tx, account.id, actorOf(session.principal), address, {
        kind: 'twoFactor.disable',
        objectId: userID,
        changes: { totp: { before: true, after: false } },
      });
    });
  }
}

/** A session's account and user (a session is always a user's; only an API token may have none). */
function userOf(session: Session): { account: Session['principal']['account']; userID: number } {
  const { account, userID } = session.principal;
  if (userID === null) throw new ApiError('NOT_PERMITTED', 'two-factor sign-in is a workspace user’s');
  return { account, userID };
}
