import type L from 'leaflet';
import { useCan } from '../session';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, describe, query } from '../api';
import { fitTo, MapView } from '../map/base-map';
import { PlacePicker, type Point } from '../map/place-picker';
import { PlaceSearch } from '../map/place-search';
import { formatDay } from '../i18n/format';
import { useFleetOverlay } from './map/fleet-overlay';
import { useSessionInfo } from '../session';
import type { Employee, MapObject, Task } from '../types';
import { LoadFailure, StatusLine } from '../ui/messages';
import { TaskForm } from './tasks/task-form';
import { TaskList } from './tasks/task-list';
import { TaskMarkers } from './tasks/task-map';
import { ARRIVALS, isOpen, STATUSES, TASKS, today, type Arrival } from './tasks/task-model';
import { TaskPanel } from './tasks/task-panel';
import './side-panels.css';
import './tasks.css';
import { t } from '../i18n/i18n';

/** The list is read again this often: the employees' phones change statuses meanwhile. */
const REFRESH_MS = 5_000;

type Editor = { kind: 'none' } | { kind: 'new'; key: number } | { kind: 'task'; taskID: number };

/**
 * The Tasks tab (`#/tasks`, or `#/tasks/<subscriberID>` for one employee's): a day's tasks by
 * status and employee, on a map and in a list. A new task is
 * placed by a click on the map (or at a map object); a selected one is assigned, its status
 * changed, its history read, and its assignee's estimated arrival drawn on the map.
 */
export function TasksPage({ route }: { route: string[] }) {
  const canEdit = useCan('edit');
  const { account } = useSessionInfo();
  const [day, setDay] = useState(() => today(account.timeZone));
  const [statusFilter, setStatusFilter] = useState('');
  const linkedEmployee = /^\d+$/.test(route[0] ?? '') ? route[0]! : '';
  const [employeeFilter, setEmployeeFilter] = useState(linkedEmployee);
  // A link to another employee's tasks (from the map's card) while the tab is open.
  useEffect(() => setEmployeeFilter(linkedEmployee), [linkedEmployee]);
  const [tasks, setTasks] = useState<Task[] | null>(null);
  const [employees, setEmployees] = useState<ReadonlyMap<number, Employee>>(new Map());
  const [mapObjects, setMapObjects] = useState<MapObject[]>([]);
  const [arrivals, setArrivals] = useState<ReadonlyMap<number, Arrival>>(new Map());
  const [loadError, setLoadError] = useState('');
  const [status, setStatus] = useState('');
  const [editor, setEditor] = useState<Editor>({ kind: 'none' });
  const [picked, setPicked] = useState<Point | null>(null);
  const map = useRef<{ map: L.Map; picker: PlacePicker; markers: TaskMarkers } | null>(null);
  const fittedDay = useRef('');
  const newForms = useRef(0);
  const selectTask = useRef((taskID: number) => show({ kind: 'task', taskID }));
  const [leaflet, setLeaflet] = useState<L.Map | null>(null);
  useFleetOverlay(leaflet);

  const filters = () =>
    query({
      dateFrom: `${day}T00:00:00`,
      dateTo: `${day}T23:59:59`,
      statuses: statusFilter === '' ? undefined : [statusFilter],
      subscriberIDs: employeeFilter === '' ? undefined : [employeeFilter],
    });

  const load = async () => {
    const list = await api.get<Task[]>(`${TASKS}${filters()}`);
    setTasks((held) => (held && JSON.stringify(held) === JSON.stringify(list) ? held : list));
    const waiting = list.filter((t) => isOpen(t) && t.subscriberID !== null && t.latitude !== null).map((t) => t.taskID);
    const estimates = waiting.length > 0 ? await api.get<Arrival[]>(`${ARRIVALS}${query({ taskIDs: waiting.slice(0, 1000).join(',') })}`) : [];
    setArrivals(new Map(estimates.map((a) => [a.taskID, a])));
    setLoadError('');
  };
  const reload = () => load().catch((error: unknown) => setLoadError(t('tasks.loadFailed', { reason: describe(error) })));

  const [employeesError, setEmployeesError] = useState('');
  const loadEmployees = () => {
    setEmployeesError('');
    api
      .get<Employee[]>(`/v6/api/subscriberManagement/subscribers${query({ withCustomTemplateItems: false })}`)
      .then((list) => setEmployees(new Map(list.map((e) => [e.subscriberID, e]))))
      .catch((error: unknown) => setEmployeesError(t('tasks.employeesFailed', { reason: describe(error) })));
  };
  useEffect(() => {
    loadEmployees();
    api.get<MapObject[]>('/v6/api/mapObjectManagement/mapObjects').then(setMapObjects, () => setMapObjects([]));
  }, []);
  useEffect(() => {
    void reload();
    const timer = setInterval(() => void reload(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [day, statusFilter, employeeFilter]);

  // The map follows the list; the first list of a day moves the map to its tasks.
  useEffect(() => {
    const held = map.current;
    if (!held || !tasks) return;
    held.markers.show(tasks);
    held.markers.select(editor.kind === 'task' ? editor.taskID : null);
    if (fittedDay.current !== day) fitTo(held.map, held.markers.bounds());
    fittedDay.current = day;
  }, [tasks]);

  const selected = editor.kind === 'task' ? tasks?.find((t) => t.taskID === editor.taskID) : undefined;
  const arrival = selected ? arrivals.get(selected.taskID) : undefined;
  useEffect(() => {
    const name = selected?.subscriberID != null ? (employees.get(selected.subscriberID)?.name ?? '') : '';
    map.current?.markers.showArrival(selected, arrival, name);
  }, [selected, arrival, employees]);

  const show = (next: Editor) => {
    const held = map.current;
    held?.picker.stop();
    held?.picker.clear();
    setPicked(null);
    if (next.kind === 'new') held?.picker.start(setPicked);
    held?.markers.select(next.kind === 'task' ? next.taskID : null);
    setEditor(next);
  };
  selectTask.current = (taskID: number) => {
    setStatus('');
    show({ kind: 'task', taskID });
  };

  const onMapReady = (leaflet: L.Map) => {
    const held = { map: leaflet, picker: new PlacePicker(leaflet), markers: new TaskMarkers(leaflet, (id) => selectTask.current(id)) };
    map.current = held;
    setLeaflet(leaflet);
    if (tasks) held.markers.show(tasks);
    return () => {
      held.picker.destroy();
      held.markers.remove();
      map.current = null;
      setLeaflet(null);
    };
  };

  const created = async (task: Task) => {
    // The page stays on the day the dispatcher is planning; a task for another day is only announced.
    const taskDay = task.startDate.slice(0, 10);
    await load();
    if (taskDay === day) {
      show({ kind: 'task', taskID: task.taskID });
      setStatus(t('tasks.created', { title: task.title }));
    } else {
      closed();
      setStatus(t('tasks.createdOn', { title: task.title, day: formatDay(taskDay) }));
    }
  };
  const closed = () => {
    show({ kind: 'none' });
    document.getElementById('tasks-title')?.focus();
  };
  const changed = async (message: string) => {
    await load();
    setStatus(message);
  };
  const deleted = async (message: string) => {
    await load();
    closed();
    setStatus(message);
  };

  const people = [...employees.values()].filter((e) => e.isActive).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section class="tasks-page" aria-labelledby="tasks-title">
      <div class="list-head">
        <h1 id="tasks-title" tabIndex={-1}>
          {t('tasks.title')}
        </h1>
        {canEdit && (
          <button type="button" onClick={() => (setStatus(''), show({ kind: 'new', key: ++newForms.current }))}>
            {t('tasks.new')}
          </button>
        )}
      </div>
      <div class="toolbar" role="search" aria-label={t('tasks.filter')}>
        <label>
          {t('tasks.day')}
          <input type="date" value={day} onChange={(e) => e.currentTarget.value && setDay(e.currentTarget.value)} />
        </label>
        <label>
          {t('tasks.status')}
          <select value={statusFilter} onChange={(e) => setStatusFilter(e.currentTarget.value)}>
            <option value="">{t('tasks.anyStatus')}</option>
            {STATUSES.map((s) => (
              <option key={s.value} value={String(s.value)}>
                {t(s.label)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('tasks.employee')}
          <select value={employeeFilter} onChange={(e) => setEmployeeFilter(e.currentTarget.value)}>
            <option value="">{t('tasks.everyone')}</option>
            {people.map((e) => (
              <option key={e.subscriberID} value={String(e.subscriberID)}>
                {e.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <StatusLine class="ok" message={status} />
      <LoadFailure message={loadError} onRetry={() => void reload()} />
      <LoadFailure message={employeesError} onRetry={loadEmployees} />
      <div class="map-layout">
        <div class="map-column">
          <PlaceSearch map={leaflet} />
          <MapView label={t('tasks.map')} onReady={onMapReady} />
        </div>
        <div class="side-column">
          {editor.kind === 'new' && (
            <TaskForm
              key={`new-${editor.key}`}
              day={day}
              employees={people}
              mapObjects={mapObjects}
              picked={picked}
              onPoint={(p) => map.current?.picker.show(p)}
              onCreated={created}
              onClose={closed}
            />
          )}
          {selected && <TaskPanel key={selected.taskID} task={selected} employees={employees} arrival={arrival} onChanged={changed} onDeleted={deleted} onClose={closed} />}
          <TaskList tasks={tasks} employees={employees} arrivals={arrivals} selected={selected?.taskID ?? null} onSelect={(id) => selectTask.current(id)} />
        </div>
      </div>
    </section>
  );
}
