export function SettingsPage() {
  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <p>Not built yet.</p>
    </section>
  );
}
