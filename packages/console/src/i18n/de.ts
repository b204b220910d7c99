import type { Catalog } from './en.js';

export const de: Catalog = {
  'console.title': 'Gatehouse-Konsole',
  'console.skip': 'Zum Inhalt springen',
  'console.nav': 'Bereiche der Konsole',
  'console.signed-in-as': 'Angemeldet als {name}',
  'console.sign-out': 'Abmelden',
  'console.loading': 'Wird geladen…',
  'nav.dashboard': 'Übersicht',
  'welcome.title': 'Bei der Konsole anmelden',
  'welcome.lead':
    'Hier verwalten Administratoren Benutzer, Anwendungen und Signaturschlüssel. Die Anmeldung verlangt Ihr Passwort und einen zweiten Faktor.',
  'welcome.sign-in': 'Anmelden',
  'welcome.signed-out': 'Sie sind abgemeldet.',
  'callback.title': 'Sie werden angemeldet…',
  'refused.second-factor.title': 'Ein zweiter Faktor ist erforderlich',
  'refused.second-factor.detail':
    'Die Konsole akzeptiert nur eine Anmeldung mit zwei Faktoren. Richten Sie auf Ihrer Kontoseite einen Passkey oder eine Authenticator-App ein und melden Sie sich dann erneut an.',
  'refused.role.title': 'Sie sind angemeldet, haben aber keine Administratorrolle',
  'refused.role.detail':
    'Ihr Konto {name} hat keine der Rollen admin, user-manager oder auditor. Bitten Sie einen Administrator, Ihnen eine zuzuweisen, und melden Sie sich dann erneut an.',
  'refused.callback.title': 'Die Anmeldung konnte nicht abgeschlossen werden',
  'refused.callback.detail':
    'Die zurückgekommene Antwort gehört zu keiner Anmeldung, die diese Konsole gestartet hat, oder die Anmeldung wurde abgebrochen. Beginnen Sie von vorn.',
  'refused.invalid.title': 'Die Anmeldung konnte nicht geprüft werden',
  'refused.invalid.detail':
    'Das Identitätstoken ist nicht für diese Konsole bestimmt oder abgelaufen. Beginnen Sie von vorn.',
  'refused.not-fresh.title': 'Melden Sie sich erneut an, um fortzufahren',
  'refused.not-fresh.detail': 'Diese Aktion erfordert eine Anmeldung aus den letzten Minuten.',
  'refused.sign-in-again': 'Erneut anmelden',
  'refused.account': 'Kontoseite öffnen',
  'problem.title': 'Die Admin-API hat dies abgelehnt',
  'problem.status': 'HTTP-Status {status}',
  'problem.retry': 'Erneut versuchen',
  'dashboard.title': 'Übersicht',
  'dashboard.keys': 'Signaturschlüssel',
  'dashboard.keys.current': 'Aktueller Schlüssel',
  'dashboard.keys.count': '{count, plural, one {# Schlüssel veröffentlicht} other {# Schlüssel veröffentlicht}}',
  'dashboard.failures': 'Letzte Fehlschläge',
  'dashboard.failures.caption':
    'Fehlgeschlagene Anmeldungen, fehlgeschlagene Client-Authentifizierungen und wiederverwendete Refresh-Tokens der letzten 24 Stunden',
  'dashboard.failures.none': 'Keine Fehlschläge in den letzten 24 Stunden.',
  'dashboard.failures.more': 'Die letzten {count} werden angezeigt.',
  'table.when': 'Zeitpunkt',
  'table.event': 'Ereignis',
  'table.client': 'Anwendung',
  'table.subject': 'Benutzer',
  'table.reason': 'Grund',
};
