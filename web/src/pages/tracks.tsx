export function TracksPage() {
  return (
    <section aria-labelledby="tracks-title">
      <h1 id="tracks-title">Tracks</h1>
      <p>Not built yet.</p>
    </section>
  );
}
