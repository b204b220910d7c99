import type { Catalog } from './en.js';

export const fr: Catalog = {
  'console.title': 'Console Gatehouse',
  'console.skip': 'Aller au contenu',
  'console.nav': 'Sections de la console',
  'console.signed-in-as': 'Connecté en tant que {name}',
  'console.sign-out': 'Se déconnecter',
  'console.loading': 'Chargement…',
  'nav.dashboard': 'Tableau de bord',
  'welcome.title': 'Se connecter à la console',
  'welcome.lead':
    'Les administrateurs gèrent ici les utilisateurs, les applications et les clés de signature. La connexion demande votre mot de passe et un second facteur.',
  'welcome.sign-in': 'Se connecter',
  'welcome.signed-out': 'Vous êtes déconnecté.',
  'callback.title': 'Connexion en cours…',
  'refused.second-factor.title': 'Un second facteur est requis',
  'refused.second-factor.detail':
    'La console n’accepte qu’une connexion à deux facteurs. Ajoutez une clé d’accès ou une application d’authentification sur la page de votre compte, puis reconnectez-vous.',
  'refused.role.title': 'Vous êtes connecté, mais vous n’avez aucun rôle d’administration',
  'refused.role.detail':
    'Votre compte {name} ne détient aucun des rôles admin, user-manager ou auditor. Demandez à un administrateur de vous en attribuer un, puis reconnectez-vous.',
  'refused.callback.title': 'La connexion n’a pas pu aboutir',
  'refused.callback.detail':
    'La réponse reçue ne correspond à aucune connexion lancée par cette console, ou la connexion a été annulée. Recommencez.',
  'refused.invalid.title': 'La connexion n’a pas pu être vérifiée',
  'refused.invalid.detail': 'Le jeton d’identité n’est pas destiné à cette console, ou il a expiré. Recommencez.',
  'refused.not-fresh.title': 'Reconnectez-vous pour continuer',
  'refused.not-fresh.detail': 'Cette action demande une connexion datant de quelques minutes au plus.',
  'refused.sign-in-again': 'Se reconnecter',
  'refused.account': 'Ouvrir la page de votre compte',
  'problem.title': 'L’API d’administration a refusé cette demande',
  'problem.status': 'Statut HTTP {status}',
  'problem.retry': 'Réessayer',
  'dashboard.title': 'Tableau de bord',
  'dashboard.keys': 'Clés de signature',
  'dashboard.keys.current': 'Clé actuelle',
  'dashboard.keys.count': '{count, plural, one {# clé publiée} other {# clés publiées}}',
  'dashboard.failures': 'Échecs récents',
  'dashboard.failures.caption':
    'Connexions échouées, authentifications de client échouées et réutilisations de jetons d’actualisation des dernières 24 heures',
  'dashboard.failures.none': 'Aucun échec au cours des dernières 24 heures.',
  'dashboard.failures.more': 'Affichage des {count} plus récents.',
  'table.when': 'Date',
  'table.event': 'Événement',
  'table.client': 'Application',
  'table.subject': 'Utilisateur',
  'table.reason': 'Motif',
};
