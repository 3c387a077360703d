import type { Account } from '../accounts/accounts.js';
import type { Change, ChangeRecorder, Initiator } from '../events/events.js';
import type { Tx } from '../store/database.js';
import type { Employee, StoredEmployee } from './employee-schema.js';

/** One change of one employee; every write (by a user, the phone or the presence agent) passes through `EmployeeChanges.commit`. */
export type EmployeeChange =
  | { type: 'add'; after: Employee }
  | { type: 'edit'; before: Employee; after: Employee }
  | { type: 'delete'; before: Employee };

/**
 * The employee as interface 2.9 carries it in events: without the device key (a credential), its
 * type, protocol and password flag, the vehicle settings, kind, plate and model (fields 2.9 does not have).
 */
export type CarriedEmployee = Omit<Employee, 'deviceKey' | 'deviceProtocol' | 'deviceType' | 'hasDevicePassword' | 'vehicleSettings' | 'kind' | 'vehiclePlate' | 'vehicleModel'>;

/** When a change happened and when the service noticed it (they differ for what is noticed afterwards, such as silence). */
export type ChangeTiming = (change: EmployeeChange) => { atMs: number; firedMs: number };

/**
 * The one place every employee change passes, inside the transaction that writes it, so the
 * change events of interface 6.5 are recorded atomically with the change itself.
 */
export class EmployeeChanges {
  constructor(
    private readonly recorder: ChangeRecorder,
    private readonly clock: () => number,
    /** Told of each change as it is committed (the device-key cache forgets the keys it touches). */
    private readonly onChange: (change: EmployeeChange) => void = () => {},
  ) {}

  async commit(tx: Tx, account: Account, changes: EmployeeChange[], initiator: Initiator, timing?: ChangeTiming): Promise<void> {
    const now = this.clock();
    for (const change of changes) this.onChange(change);
    await this.recorder.record(
      tx,
      account,
      'employee',
      changes.map((change) => {
        const entityId = entityIdOf(change);
        return { change: carryChange(change), entityId, subscriberIds: [entityId], initiator, ...(timing?.(change) ?? { atMs: now, firedMs: now }) };
      }),
    );
  }
}

export const entityIdOf = (change: EmployeeChange) => (change.type === 'add' ? change.after.subscriberID : change.before.subscriberID);

function carry(employee: StoredEmployee): CarriedEmployee {
  const {
    deviceKey: _key,
    deviceProtocol: _protocol,
    deviceType: _type,
    hasDevicePassword: _password,
    vehicleSettings: _settings,
    kind: _kind,
    vehiclePlate: _plate,
    vehicleModel: _model,
    deviceSeen: _seen,
    ...carried
  } = employee;
  return carried;
}

function carryChange(change: EmployeeChange): Change<CarriedEmployee> {
  switch (change.type) {
    case 'add':
      return { type: 'add', after: carry(change.after) };
    case 'edit':
      return { type: 'edit', before: carry(change.before), after: carry(change.after) };
    case 'delete':
      return { type: 'delete', before: carry(change.before) };
  }
}
