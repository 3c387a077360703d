import { hashPassword, verifyPassword, type Account } from '../accounts/accounts.js';
import { formatDateTime } from '../http/datetime.js';
import { ApiError } from '../http/errors.js';
import type { Database } from '../store/database.js';
import type { Retranslator, RetranslatorWrite } from './retranslator-schema.js';
import { deleteRetranslator, findRetranslator, insertRetranslator, listRetranslators, retranslatorsWithDispatcherId, type RetranslatorRow } from './retranslator-store.js';
import type { TrackerRetranslator } from './tracker-server.js';

const notFound = () => new ApiError('RETRANSLATOR_NOT_FOUND', 'no such retranslator');

/**
 * The EGTS retranslators an account lets relay its vehicles (docs/operators/devices-egts.md): configured
 * through the API, authenticated by the EGTS listener.
 */
export class EgtsRetranslators {
  /** Compared against when no retranslator has the dispatcher id, so an unknown one takes as long as a wrong password. */
  private decoy: Promise<string> | null = null;

  constructor(
    private readonly database: Database,
    private readonly clock: () => number = Date.now,
  ) {}

  async list(account: Account): Promise<Retranslator[]> {
    return (await listRetranslators(this.database.db, account.id)).map((row) => toView(row, account));
  }

  async get(account: Account, id: number): Promise<Retranslator> {
    const row = await findRetranslator(this.database.db, account.id, id);
    if (!row) throw notFound();
    return toView(row, account);
  }

  async create(account: Account, input: RetranslatorWrite): Promise<Retranslator> {
    const row = { account_id: account.id, dispatcher_id: input.dispatcherID, name: input.name, password_hash: await hashPassword(input.password), created_at: this.clock() };
    const id = await insertRetranslator(this.database.db, row);
    // Only the account's own retranslators conflict: another account's dispatcher ids are not disclosed.
    if (id === null) throw new ApiError('CONFLICT', 'the account has a retranslator with this dispatcherID', { dispatcherID: 'already in use' });
    return toView({ ...row, id }, account);
  }

  async delete(account: Account, id: number): Promise<void> {
    if (!(await deleteRetranslator(this.database.db, account.id, id))) throw notFound();
  }

  /** The retranslator this dispatcher id and password name, of whichever account configured it; null for none. */
  async authenticate(dispatcherId: number, password: string): Promise<TrackerRetranslator | null> {
    const candidates = await retranslatorsWithDispatcherId(this.database.db, dispatcherId);
    if (candidates.length === 0) {
      this.decoy ??= hashPassword('decoy password never used');
      await verifyPassword(password, await this.decoy);
      return null;
    }
    for (const candidate of candidates) {
      if (await verifyPassword(password, candidate.password_hash)) return { accountId: candidate.account_id, retranslatorId: candidate.id };
    }
    return null;
  }
}

function toView(row: RetranslatorRow, account: Account): Retranslator {
  return { retranslatorID: row.id, dispatcherID: row.dispatcher_id, name: row.name, createdAt: formatDateTime(row.created_at, account.timeZone) };
}
