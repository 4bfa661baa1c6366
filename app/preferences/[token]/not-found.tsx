import '@/app/styles/preferences.css';
/** A preference link that is not valid (mistyped, cut off, or signed with another key): a plain message, no staff links. */
export default function PreferencesLinkNotFound() {
  return (
    <main className="public-page">
      <div className="public-card">
        <h1>This link does not work</h1>
        <p>We could not find the preferences this link points to. Please use the link in your most recent message, and make sure it was copied whole.</p>
      </div>
    </main>
  );
}
