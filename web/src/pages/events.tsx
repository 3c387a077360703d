import './events.css';
import { RuleForm } from './events/rule-form';
import { RuleList } from './events/rule-list';

/** The Events tab (interface 6.1): `#/events` the list, `#/events/new` and `#/events/<id>` the form. */
export function EventsPage({ route }: { route: string[] }) {
  const [view] = route;
  if (view === 'new') return <RuleForm key="new" eventID={null} />;
  if (view !== undefined && /^\d+$/.test(view)) return <RuleForm key={view} eventID={Number(view)} />;
  return <RuleList />;
}
