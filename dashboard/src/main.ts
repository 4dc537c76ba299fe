import './styles.css';
import { ApiError, describeError, forgetKey, keyOperator, storedKey, storeKey } from './api';
import { bookingsPanel } from './bookings';
import { manifestPanel } from './manifest';
import { byId, type Panel } from './dom';
import { usagePanel } from './usage';

const signInScreen = byId('sign-in-screen');
const dashboardScreen = byId('dashboard-screen');
const signInForm = byId<HTMLFormElement>('sign-in-form');
const keyInput = byId<HTMLInputElement>('api-key');
const signInMessage = byId('sign-in-message');
const signOut = byId<HTMLButtonElement>('sign-out');
const signedInAs = byId('signed-in-as');

/** A refused key ends the session: it is forgotten and the operator signs in again, told why. */
function onUnauthorized(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 401) return false;
  showSignIn(describeError(error, ''));
  return true;
}

const panels: Record<'bookings' | 'manifest' | 'usage', Panel> = {
  bookings: bookingsPanel(onUnauthorized),
  manifest: manifestPanel(onUnauthorized),
  usage: usagePanel(onUnauthorized),
};
const tabs = {
  bookings: byId<HTMLButtonElement>('tab-bookings'),
  manifest: byId<HTMLButtonElement>('tab-manifest'),
  usage: byId<HTMLButtonElement>('tab-usage'),
};
const tabNames = Object.keys(tabs) as (keyof typeof tabs)[];
const loaded = new Set<keyof typeof tabs>();

function selectTab(name: keyof typeof tabs, focus = false): void {
  for (const other of tabNames) {
    const selected = other === name;
    tabs[other].setAttribute('aria-selected', String(selected));
    tabs[other].tabIndex = selected ? 0 : -1;
    byId(`panel-${other}`).hidden = !selected;
  }
  if (focus) tabs[name].focus();
  // Each panel loads on its first showing; after that its own form reloads it.
  if (!loaded.has(name)) {
    loaded.add(name);
    panels[name].show();
  }
}

function showSignIn(message = ''): void {
  forgetKey();
  loaded.clear();
  for (const panel of Object.values(panels)) panel.reset();
  dashboardScreen.hidden = true;
  signOut.hidden = true;
  signedInAs.hidden = true;
  signInScreen.hidden = false;
  signInMessage.textContent = message;
  signInMessage.hidden = !message;
  keyInput.value = '';
  keyInput.focus();
}

/** Names the operator signed in as, with its time zone, once the key says which it is. */
function showSignedInAs(): void {
  keyOperator().then(
    (signedIn) => {
      signedInAs.textContent = `${signedIn.Name} · ${signedIn.TimeZone}`;
      signedInAs.hidden = false;
    },
    (error) => onUnauthorized(error),
  );
}

function showDashboard(): void {
  signInScreen.hidden = true;
  signInMessage.hidden = true;
  dashboardScreen.hidden = false;
  signOut.hidden = false;
  showSignedInAs();
  selectTab('bookings', true);
}

signInForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const key = keyInput.value.trim();
  if (!key) {
    signInMessage.textContent = 'Enter an operator API key.';
    signInMessage.hidden = false;
    keyInput.focus();
    return;
  }
  storeKey(key);
  keyInput.value = '';
  showDashboard();
});

signOut.addEventListener('click', () => showSignIn());

for (const name of tabNames) {
  tabs[name].addEventListener('click', () => selectTab(name));
  // The WAI-ARIA tabs pattern: arrow keys move between tabs, Tab moves into the panel.
  tabs[name].addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const step = event.key === 'ArrowRight' ? 1 : -1;
    selectTab(tabNames[(tabNames.indexOf(name) + step + tabNames.length) % tabNames.length], true);
    event.preventDefault();
  });
}

if (storedKey()) showDashboard();
else showSignIn();
