import type { Catalog } from './catalog.js';

/** French, formal address (vous), as identity products phrase their sign-in pages (catalog.ts). */
export const fr: Catalog = {
  messages: {
    'layout.title': '{page} · {product}',
    'layout.product-title': '{product}',
    'layout.footer': 'Protégé par {product} · serveur d’autorisation OAuth 2.0',
    'layout.languages': 'Langue',
    'error.details': 'Détails, tels qu’envoyés à l’application',
    'error.what-to-do': 'Que faire ?',
    'error.try-again': 'Réessayer',
    'error.fine-print': 'Erreur <code>{error}</code> · HTTP {status} · <link>À propos de cette erreur</link>',
    'error.not-found.title': 'Page introuvable',
    'error.not-found.detail': 'Il n’y a aucune page à l’adresse {path}.',
    'error.not-found.action':
      'Vérifiez l’adresse, ou rendez-vous sur la <link>page d’accueil</link> pour voir ce que propose ce serveur.',
    'form-post.title': 'Retour à l’application',
    'form-post.no-script': 'Votre navigateur n’exécute pas de script ici : continuez manuellement.',
    'form-post.continue': 'Continuer',
    'client.claim': 'Se présente comme « {name} », un nom que personne n’a vérifié',
    'client.links': 'À propos de l’application',
    'client.link.home': 'Site web',
    'client.link.policy': 'Politique de confidentialité',
    'client.link.terms': 'Conditions d’utilisation',
    'client.any': 'l’application',
    'common.signed-in-as': 'Connecté en tant que <b>{username}</b>',
    'sign-in.title': 'Connexion',
    'sign-in.lead.account': 'à votre compte',
    'sign-in.lead.client': 'pour continuer vers <app>{client}</app>',
    'sign-in.username': 'Nom d’utilisateur',
    'sign-in.password': 'Mot de passe',
    'sign-in.submit': 'Se connecter',
    'sign-in.next.consent': 'Vous choisirez ensuite ce que {client} peut faire avec votre compte.',
    'sign-in.next.account':
      'Vous verrez les applications qui peuvent utiliser votre compte, et comment vous vous connectez.',
    'sign-in.upstreams.title': 'Ou connectez-vous avec votre organisation',
    'sign-in.upstreams.email': 'Adresse e-mail professionnelle',
    'sign-in.upstreams.continue': 'Continuer',
    'sign-in.upstreams.provider': 'Se connecter avec {provider}',
    'sign-in.alert.check': 'Vérifiez vos identifiants et réessayez.',
    'sign-in.alert.passkey': 'Réessayez, ou utilisez votre mot de passe.',
    'sign-in.alert.wait-seconds': 'Réessayez dans {seconds, plural, one {# seconde} other {# secondes}}.',
    'sign-in.alert.wait-minutes': 'Réessayez dans {minutes, plural, one {# minute} other {# minutes}}.',
    'passkey.or': 'ou',
    'passkey.sign-in': 'Se connecter avec une clé d’accès',
    'passkey.confirm': 'Confirmer avec une clé d’accès',
    'passkey.use': 'Utiliser une clé d’accès',
    'passkey.checking': 'Vérification de votre clé d’accès…',
    'passkey.not-used': 'Aucune clé d’accès n’a été utilisée. Réessayez, ou utilisez votre mot de passe.',
    'passkey.failed': 'La clé d’accès n’a pas fonctionné ici. Rechargez la page et réessayez.',
    'passkeys.title': 'Clés d’accès',
    'passkeys.none':
      'Aucune clé d’accès pour le moment. Une clé d’accès vous connecte sans mot de passe, avec votre empreinte digitale, votre visage, le verrouillage de l’écran ou une clé de sécurité.',
    'passkeys.added': 'Ajoutée le {added}',
    'passkeys.not-used': 'Jamais utilisée',
    'passkeys.last-used': 'Dernière utilisation {when}',
    'passkeys.synced': 'Synchronisée',
    'passkeys.rename-label': 'Nouveau nom pour {name}',
    'passkeys.rename': 'Renommer',
    'passkeys.remove': 'Supprimer la clé d’accès',
    'passkeys.name-label': 'Nom de la nouvelle clé d’accès (facultatif)',
    'passkeys.name-placeholder': 'Ordinateur portable professionnel',
    'passkeys.add': 'Ajouter une clé d’accès',
    'factor.title': 'Validation en deux étapes',
    'factor.other-ways': 'Autres méthodes de vérification',
    'factor.verify': 'Vérifier',
    'factor.label.otp': 'Code de votre application d’authentification',
    'factor.label.recovery-code': 'Code de récupération',
    'factor.label.passkey': 'Une clé d’accès',
    'factor.alert.replayed': 'Ce code a déjà été utilisé. Attendez le suivant.',
    'factor.alert.wrong-recovery-code': 'Ce code de récupération est erroné ou a déjà été utilisé.',
    'factor.alert.enrolment-refused': 'Recommencez depuis l’application.',
    'factor.alert.check': 'Vérifiez le code et réessayez.',
    'enrol.title': 'Configurer la validation en deux étapes',
    'enrol.reason':
      'Pour continuer vers <app>{client}</app>, votre connexion nécessite une deuxième étape : après votre mot de passe, un code provenant d’une application sur votre téléphone.',
    'enrol.scan':
      'Scannez ce code avec une application d’authentification (comme Google Authenticator, 1Password ou Aegis), puis saisissez le code à six chiffres qu’elle affiche.',
    'enrol.qr': 'Code QR pour votre application d’authentification',
    'enrol.cannot-scan': 'Impossible de le scanner ? Saisissez cette clé dans l’application :',
    'enrol.code': 'Code de l’application',
    'enrol.submit': 'Activer la validation en deux étapes',
    'enrol.not-now': 'Pas maintenant : retour à votre compte',
    'recovery.title': 'Vos codes de récupération',
    'recovery.heading': 'Enregistrez vos codes de récupération',
    'recovery.lead':
      'Chaque code vous connecte une fois si vous perdez votre application d’authentification. Conservez-les en lieu sûr : ils ne sont affichés qu’une seule fois.',
    'recovery.continue': 'Je les ai enregistrés, continuer',
    'consent.title': 'Autoriser {client} ?',
    'consent.heading': '<app>{client}</app> souhaite accéder à votre compte',
    'consent.document-note':
      '<b>Aucun administrateur n’a ajouté cette application.</b> Elle se décrit elle-même depuis <site>{host}</site>, la seule chose que {product} a pu vérifier. Ne l’autorisez que si vous faites confiance à ce site.',
    'consent.self-registered':
      '<b>Cette application s’est enregistrée elle-même.</b> Aucun administrateur ne l’a ajoutée, son nom n’a donc pas été vérifié : ne l’autorisez que si vous l’avez lancée vous-même.',
    'consent.no-access':
      '{client} souhaite seulement savoir que vous êtes connecté ; elle n’obtient aucun accès à vos données.',
    'consent.will-allow': 'Vous autoriserez {client} à :',
    'consent.deny': 'Refuser',
    'consent.allow': 'Autoriser',
    'consent.organization': 'Pour l’organisation {organization}',
    'organizations.choose.title': 'Choisir une organisation',
    'organizations.choose.lead': 'Pour quelle organisation vous connectez-vous à {client} ?',
    'consent.fine-print':
      'Dans les deux cas, vous serez renvoyé vers <b>{destination}</b>. Vous pourrez retirer cet accès plus tard sur votre <account>page de compte</account>.',
    'scope.openid': 'Vous connecter avec votre compte',
    'scope.profile': 'Voir votre nom, votre nom d’utilisateur et votre langue',
    'scope.email': 'Voir votre adresse e-mail et savoir si elle est vérifiée',
    'scope.offline-access': 'Conserver l’accès en votre absence',
    'scope.read': 'Voir vos {things}',
    'scope.write': 'Créer, modifier et supprimer vos {things}',
    'device.title': 'Connecter un appareil',
    'device.lead': 'Saisissez le code affiché sur votre appareil.',
    'device.code': 'Code',
    'device.code-placeholder': 'XXXX-XXXX',
    'device.continue': 'Continuer',
    'device.fine-print': 'Ne saisissez que le code d’un appareil que vous configurez vous-même.',
    'device.check-code': 'Vérifiez que votre appareil affiche <usercode>{userCode}</usercode>',
    'device.consent-fine-print':
      'Si les codes diffèrent, ou si vous n’avez rien lancé sur un appareil, choisissez Refuser. Vous pourrez retirer cet accès plus tard sur votre <account>page de compte</account>.',
    'device.connected.title': 'Appareil connecté',
    'device.connected.text': '{client} a désormais accès. Revenez à votre appareil : il continue tout seul.',
    'device.denied.title': 'Accès refusé',
    'device.denied.text': '{client} n’a pas obtenu l’accès. Vous pouvez fermer cette page.',
    'device.alert.check': 'Vérifiez le code sur votre appareil et saisissez-le à nouveau.',
    'logout.title': 'Déconnexion',
    'logout.heading': 'Se déconnecter de {product} ?',
    'logout.not-signed-in': 'Vous n’êtes pas connecté.',
    'logout.asked-by': '<app>{client}</app> a demandé votre déconnexion.',
    'logout.lead': 'La prochaine fois qu’une application vous enverra ici, vous vous connecterez à nouveau.',
    'logout.submit': 'Se déconnecter',
    'logout.account': 'Votre compte',
    'signed-out.title': 'Déconnecté',
    'signed-out.heading': 'Vous êtes déconnecté',
    'signed-out.lead':
      'Vous pouvez fermer cette fenêtre. Les applications que vous utilisez vous demanderont de vous reconnecter.',
    'account.title': 'Votre compte',
    'account.apps.none': 'Aucune application n’a accès à votre compte.',
    'account.apps.title': 'Applications ayant accès à votre compte',
    'account.apps.dates': 'Autorisée depuis le {since} · Dernière utilisation {used}',
    'account.apps.remove': 'Retirer l’accès',
    'account.fine-print': 'Retirer l’accès déconnecte immédiatement l’application : ses jetons cessent de fonctionner.',
    'account.sign-out': 'Se déconnecter',
    'account.linked.title': 'Fournisseurs d’identité avec lesquels vous vous connectez',
    'account.linked.since': 'Associé depuis le {since}',
    'account.linked.unlink': 'Dissocier',
    'account.notice.access-removed': 'Accès retiré : l’application ne peut plus utiliser votre compte.',
    'account.notice.access-removed-named':
      'Accès retiré : {client} ne peut plus utiliser votre compte. Ses jetons ont cessé de fonctionner.',
    'account.notice.two-step-on':
      'La validation en deux étapes est activée. Conservez vos codes de récupération en lieu sûr.',
    'account.notice.two-step-off':
      'L’application d’authentification est désactivée, et ses codes de récupération ne fonctionnent plus.',
    'account.notice.recovery-codes': 'Vous avez de nouveaux codes de récupération. Les anciens ne fonctionnent plus.',
    'account.notice.passkey-added': 'Clé d’accès ajoutée. Elle vous connecte sans mot de passe.',
    'account.notice.passkey-renamed': 'Clé d’accès renommée.',
    'account.notice.passkey-removed': 'Clé d’accès supprimée. Elle ne vous connecte plus.',
    'account.notice.language': 'Votre langue est enregistrée.',
    'account.language.title': 'Langue',
    'account.language.label': 'Langue de ces pages et des applications qui la demandent',
    'account.language.automatic': 'Celle que demande mon navigateur',
    'account.language.save': 'Enregistrer la langue',
    'security.title': 'Comment vous vous connectez',
    'security.on-app':
      'La validation en deux étapes est <b>activée</b> : codes de votre application d’authentification, depuis le {since}. {codes, plural, one {# code de récupération restant.} other {# codes de récupération restants.}}',
    'security.on-app-passkeys':
      'La validation en deux étapes est <b>activée</b> : codes de votre application d’authentification, depuis le {since}, et {passkeys, plural, one {# clé d’accès} other {# clés d’accès}}. {codes, plural, one {# code de récupération restant.} other {# codes de récupération restants.}}',
    'security.on-passkeys':
      'La validation en deux étapes est <b>activée</b> : {passkeys, plural, one {# clé d’accès} other {# clés d’accès}}.',
    'security.off': 'La validation en deux étapes est <b>désactivée</b>.',
    'security.confirm':
      '<b>Confirmez votre identité pour apporter des modifications.</b> Configurer ou désactiver la validation en deux étapes, ajouter, renommer ou supprimer une clé d’accès nécessite une connexion datant de moins de {minutes, plural, one {# minute} other {# minutes}}.',
    'security.confirm-submit': 'Confirmer votre identité',
    'security.add-app': 'Ajouter une application d’authentification',
    'security.set-up': 'Configurer la validation en deux étapes',
    'security.new-codes': 'Nouveaux codes de récupération',
    'security.turn-off': 'Désactiver',
    'link.title': 'Associer votre compte',
    'link.lead':
      'Un compte ici utilise déjà l’adresse e-mail transmise par <b>{provider}</b>. S’il est à vous, saisissez son mot de passe pour vous connecter désormais avec <b>{provider}</b>.',
    'link.lead-passkey':
      'Un compte ici utilise déjà l’adresse e-mail transmise par <b>{provider}</b>. S’il est à vous, saisissez son mot de passe ou utilisez l’une de ses clés d’accès pour vous connecter désormais avec <b>{provider}</b>.',
    'link.password': 'Mot de passe de ce compte',
    'link.submit': 'Associer et continuer',
    'link.passkey': 'Utiliser une clé d’accès de ce compte',
    'link.fine-print':
      'Ce n’est pas votre compte ? Fermez cette fenêtre : rien n’est associé sans le mot de passe ou une clé d’accès du compte.',
    'link.alert.wrong-password': 'Mot de passe incorrect',
    'link.alert.check': 'Rien n’a été associé. Vérifiez le mot de passe et réessayez.',
    'link.alert.passkey': 'Rien n’a été associé. Réessayez la clé d’accès, ou le mot de passe.',
    'continue.title': 'Connecté',
    'continue.lead': 'Retour à l’application…',
    'continue.button': 'Continuer',
    'landing.lead':
      'Le serveur d’autorisation OAuth 2.0 et fournisseur OpenID à l’adresse <b>{issuer}</b>. Les applications vous envoient ici pour vous connecter et demander l’accès à votre compte.',
    'landing.account': 'Votre compte',
    'landing.account.what': 'les applications que vous avez autorisées, et la déconnexion',
    'landing.openid': 'Configuration du fournisseur OpenID',
    'landing.openid.what': 'OpenID Connect Discovery 1.0',
    'landing.metadata': 'Métadonnées du serveur d’autorisation',
    'landing.metadata.what': 'RFC 8414 : points de terminaison, autorisations, scopes',
    'landing.jwks': 'Clés de signature',
    'landing.jwks.what': 'les clés publiques de ses jetons (JWKS)',
    'landing.api': 'API REST',
    'landing.api.what': 'le document OpenAPI de {prefix}',
    'landing.fine-print': 'Développeurs : partez des métadonnées ; chaque erreur renvoie à une page qui l’explique.',
    'problems.status': 'HTTP {status}',
    'problems.transient': 'temporaire : la même requête peut réussir plus tard',
    'problems.permanent': 'définitive : une nouvelle tentative échoue à nouveau',
    'problems.wire-title': 'Son <code>title</code> dans une réponse : <wire>{title}</wire>',
    'problems.client-action': 'Ce que le client doit faire',
    'problems.reasons': 'La <code>error_description</code> de chaque motif',
    'problems.every-error': 'Toutes les erreurs',
    'problems.home': 'Accueil',
    'problems.index.title': 'Erreurs',
    'problems.index.lead':
      'Chaque erreur que renvoie ce serveur, avec ce que le client doit faire. Une erreur OAuth indique sa page dans <code>error_uri</code> ; un problème (RFC 9457) dans <code>type</code>.',
    'problems.index.oauth': 'Erreurs OAuth 2.0, avec leurs motifs',
    'problems.index.problems': 'Problèmes (<code>application/problem+json</code>)',
    'demo.served': 'Affichée parce que le serveur tourne avec <code>--demo</code>.',
    'demo.no-code.title': 'Aucun code',
    'demo.no-code.heading': 'Aucun code d’autorisation',
    'demo.no-code.summary': 'La demande d’autorisation est revenue sans code utilisable par cette page.',
    'demo.no-code.again': 'Recommencez avec l’URL d’autorisation affichée par <code>npm start</code>.',
    'demo.code.title': 'Code d’autorisation',
    'demo.code.heading': 'Code d’autorisation reçu',
    'demo.code.lead': 'Le serveur d’autorisation a renvoyé le navigateur ici, vers l’URI de redirection de la démo.',
    'demo.code.exchange': 'Échangez-le dans {seconds, plural, one {# seconde} other {# secondes}}',
    'demo.code.verifier':
      'Indiquez le <code>code_verifier</code> de votre demande d’autorisation (celui affiché à côté de l’URL que vous avez ouverte).',
    'demo.code.once': 'Le code ne fonctionne qu’une fois.',
    'demo.refused.title': 'Échange refusé',
    'demo.refused.heading': 'L’échange du code a été refusé',
    'demo.refused.summary': 'Cette page a envoyé le code à /token pour le client public de la démo, qui a répondu :',
    'demo.refused.again': 'Recommencez avec l’URL OpenID Connect affichée par <code>npm start</code>.',
    'demo.signed-in.title': 'Connecté',
    'demo.signed-in.heading': 'Connecté avec OpenID Connect',
    'demo.signed-in.lead':
      'Cette page a échangé le code auprès de /token, en tant que client public de la démo, et a obtenu un jeton d’identité pour le scope <code>{scope}</code>. Ses claims :',
    'demo.signed-in.nonce-ok': 'Le nonce est celui de la demande affichée.',
    'demo.signed-in.nonce-wrong': 'Le nonce n’est PAS celui de la demande affichée.',
    'demo.signed-in.check':
      'Un client vérifie la signature du jeton avec les clés de <link>/jwks</link> ainsi que ses claims (OIDC Core §3.1.3.7) ; cette page se contente de les afficher.',
    'demo.signed-in.userinfo': 'Interroger /userinfo avec le jeton d’accès',
    'sign-in.forgot-password': 'Mot de passe oublié ?',
    'reset.title': 'Réinitialiser votre mot de passe',
    'reset.lead':
      'Saisissez le nom d’utilisateur ou l’adresse e-mail de votre compte. Nous enverrons à son adresse e-mail un lien pour choisir un nouveau mot de passe.',
    'reset.identifier': 'Nom d’utilisateur ou adresse e-mail',
    'reset.submit': 'Envoyer le lien',
    'reset.back': 'Retour à la connexion',
    'reset.sent.title': 'Consultez vos e-mails',
    'reset.sent.lead':
      'Si un compte correspond à votre saisie et possède une adresse e-mail, un lien pour choisir un nouveau mot de passe y est envoyé. Il fonctionne une fois, pendant {minutes, plural, one {# minute} other {# minutes}}.',
    'reset.sent.spam':
      'Rien au bout de quelques minutes ? Regardez dans vos courriers indésirables, vérifiez votre saisie ou contactez votre administrateur.',
    'reset.new.title': 'Choisir un nouveau mot de passe',
    'reset.new.lead': 'Pour le compte {username}.',
    'reset.new.password': 'Nouveau mot de passe',
    'reset.new.hint':
      'Au moins {min} caractères. Quelques mots sans rapport entre eux font un mot de passe solide et facile à retenir.',
    'reset.new.code-why': 'Votre compte utilise la validation en deux étapes : confirmez que c’est bien vous.',
    'reset.new.code': 'Code de votre application d’authentification, ou code de récupération',
    'reset.new.submit': 'Enregistrer le nouveau mot de passe',
    'reset.done.title': 'Mot de passe modifié',
    'reset.done.lead':
      'Votre nouveau mot de passe est enregistré et vous êtes déconnecté partout. Reconnectez-vous avec celui-ci.',
    'reset.done.grants':
      'Les applications qui avaient accès à votre compte l’ont perdu : autorisez-les de nouveau lorsqu’elles le demandent.',
    'reset.done.sign-in': 'Se connecter',
    'reset.alert.too-short': 'Utilisez au moins 8 caractères.',
    'reset.alert.too-long': 'Utilisez au plus 1024 caractères.',
    'reset.alert.too-common':
      'Ce mot de passe est courant, a fuité ou se devine facilement à partir de votre compte. Essayez quelques mots sans rapport entre eux.',
    'mail.footer': 'Envoyé par {product} depuis {issuer}.',
    'mail.reset.subject': 'Réinitialisez votre mot de passe',
    'mail.reset.lead':
      'Quelqu’un, probablement vous, a demandé la réinitialisation du mot de passe de votre compte {username}. Pour choisir un nouveau mot de passe, ouvrez ce lien dans les {minutes, plural, one {# minute} other {# minutes}}. Il fonctionne une fois.',
    'mail.reset.action': 'Choisir un nouveau mot de passe',
    'mail.reset.ignore':
      'Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail : votre mot de passe reste inchangé.',
    'account.email.title': 'Adresse e-mail',
    'account.email.verified': '{email} · vérifiée',
    'account.email.unverified':
      '{email} · pas encore vérifiée. Vérifiez-la pour que les applications puissent s’y fier.',
    'account.email.send': 'Envoyer un e-mail de vérification',
    'account.email.enter-code': 'Saisir le code reçu par e-mail',
    'account.notice.verification-sent':
      'Un e-mail de vérification est en route. Son lien et son code fonctionnent pendant 24 heures.',
    'account.notice.verification-wait':
      'Trop d’e-mails de vérification ont été demandés. Ouvrez le plus récent ou réessayez plus tard.',
    'account.notice.email-verified': 'Votre adresse e-mail est vérifiée.',
    'verify.title': 'Vérifier votre adresse e-mail',
    'verify.lead': 'Confirmez que {email} est l’adresse du compte {username}.',
    'verify.submit': 'Vérifier mon adresse',
    'verify.code.title': 'Saisir le code de vérification',
    'verify.code.lead': 'Saisissez le code à six chiffres du dernier e-mail envoyé à {email}.',
    'verify.code.label': 'Code de vérification',
    'verify.code.submit': 'Vérifier',
    'verify.code.check': 'Vérifiez le code du dernier e-mail et réessayez.',
    'verify.back': 'Retour à votre compte',
    'verify.done.title': 'Adresse vérifiée',
    'verify.done.lead': '{email} est vérifiée. Les applications que vous autorisez peuvent désormais s’y fier.',
    'mail.verify.subject': 'Vérifiez votre adresse e-mail',
    'mail.verify.lead': 'Confirmez qu’il s’agit bien de l’adresse e-mail de votre compte {username}.',
    'mail.verify.action': 'Vérifier mon adresse',
    'mail.verify.code':
      'Ou saisissez ce code là où la page le demande : {code}. Le lien et le code fonctionnent une fois, pendant {hours} heures.',
    'mail.verify.ignore': 'Si vous ne connaissez pas ce compte, ignorez cet e-mail.',
    'invite.title': 'Accepter l’invitation',
    'invite.lead':
      'Vous êtes invité à {where}, avec l’adresse {email}. Choisissez un nom d’utilisateur et un mot de passe pour votre compte.',
    'invite.username': 'Nom d’utilisateur',
    'invite.username-hint':
      'Jusqu’à 64 caractères : lettres a–z, chiffres et . _ @ -, en commençant par une lettre ou un chiffre.',
    'invite.password': 'Mot de passe',
    'invite.submit': 'Créer mon compte',
    'invite.alert.username-taken': 'Ce nom d’utilisateur est pris : choisissez-en un autre.',
    'invite.done.title': 'Votre compte est prêt',
    'invite.done.lead':
      'Le compte {username} est créé et votre adresse est vérifiée. Connectez-vous avec votre nouveau mot de passe.',
    'invite.member.lead': 'Vous êtes invité à {where}, avec votre compte {username}.',
    'invite.member.sign-in-first': 'Connectez-vous d’abord en tant que {username}, puis rouvrez le lien de l’e-mail.',
    'invite.member.accept': 'Accepter l’invitation',
    'invite.joined.title': 'Invitation acceptée',
    'invite.joined.lead': 'Vous avez rejoint {where}.',
    'mail.invitation.subject': 'Vous êtes invité',
    'mail.invitation.lead':
      'Vous êtes invité à {where}. Choisissez un nom d’utilisateur et un mot de passe pour créer votre compte ; ce lien fonctionne {days, plural, one {# jour} other {# jours}}.',
    'mail.invitation.action': 'Accepter l’invitation',
    'mail.invitation.existing-lead':
      'Vous êtes invité à {where} avec votre compte {username}. Connectez-vous et acceptez d’ici {days, plural, one {# jour} other {# jours}}.',
    'mail.invitation.existing-action': 'Se connecter et accepter',
    'mail.invitation.ignore': 'Si vous ne vous y attendiez pas, ignorez cet e-mail : rien ne se passe sans vous.',
    'account.data.title': 'Vos données',
    'account.data.lead':
      'Tout ce que ce serveur conserve sur vous, dans un fichier JSON : vos informations, vos moyens de connexion (sans secrets), les applications autorisées, vos sessions, vos appartenances et les événements d’audit vous concernant.',
    'account.data.download': 'Télécharger mes données',
    'account.delete.title': 'Supprimer mon compte',
    'account.delete.lead':
      'Cela supprime définitivement votre compte : toutes les applications perdent l’accès, votre mot de passe, vos clés d’accès, seconds facteurs et sessions sont supprimés. Le journal d’audit garde ses entrées sans vos données personnelles.',
    'account.delete.confirm': 'Saisissez votre nom d’utilisateur, {username}, pour confirmer',
    'account.delete.submit': 'Supprimer définitivement mon compte',
    'account.delete.fresh':
      'Supprimer le compte demande une connexion de moins de 10 minutes : confirmez d’abord que c’est vous, ci-dessus.',
    'account.deleted.title': 'Compte supprimé',
    'account.deleted.lead': 'Votre compte et ce qu’il contenait sont supprimés, et vous êtes déconnecté partout.',
    'sign-in.sign-up': 'Créer un compte',
    'sign-up.title': 'Créer un compte',
    'sign-up.lead':
      'Nous envoyons un e-mail à votre adresse pour la vérifier ; vous vous connectez ensuite avec elle et votre mot de passe.',
    'sign-up.domains': 'Uniquement les adresses de {domains}.',
    'sign-up.email': 'Adresse e-mail',
    'sign-up.name': 'Nom',
    'sign-up.submit': 'Créer le compte',
    'sign-up.alert.address': 'Saisissez l’adresse à laquelle vous recevez vos e-mails, par exemple nom@example.com.',
    'sign-up.alert.domain': 'Utilisez une adresse de {domains}.',
    'sign-up.alert.name': 'Saisissez un nom d’au plus 128 caractères, sur une ligne.',
    'sign-up.sent.lead':
      'Si aucun compte n’a encore cette adresse, un e-mail avec un lien pour la vérifier est en route : ouvrez-le dans les {hours} heures pour terminer. Si l’adresse a déjà un compte, son titulaire est prévenu à la place.',
    'mail.sign-up-taken.subject': 'Quelqu’un a tenté de s’inscrire avec votre adresse',
    'mail.sign-up-taken.lead':
      'Quelqu’un a demandé à créer un compte avec cette adresse e-mail, qui appartient déjà à votre compte {username}. Aucun compte n’a été créé.',
    'mail.sign-up-taken.action': 'Réinitialiser votre mot de passe',
    'mail.sign-up-taken.ignore':
      'Si c’était vous, connectez-vous avec ce compte ou choisissez un nouveau mot de passe avec le lien ci-dessus. Sinon, ignorez cet e-mail : rien n’a changé.',
  },
  problems: {
    'organization-not-member': {
      title: 'Vous n’êtes pas membre de cette organisation',
      summary:
        'L’application a demandé à vous connecter pour une organisation (son paramètre organization) qui n’existe pas sur ce serveur ou dont votre compte n’est pas membre. Rien n’a été accordé.',
      action:
        'Revenez à l’application et choisissez l’une de vos organisations, ou demandez à un administrateur de l’organisation de vous ajouter.',
    },
    'organization-sign-in-method': {
      title: 'Votre organisation demande une autre façon de vous connecter',
      summary:
        'Vous vous êtes connecté d’une façon que l’organisation demandée par l’application n’autorise pas (ses méthodes de connexion : un mot de passe, une clé d’accès ou le fournisseur d’identité de l’organisation). Rien n’a été accordé.',
      action:
        'Déconnectez-vous, puis reconnectez-vous de l’une des façons nommées dans les détails (par exemple avec votre clé d’accès ou par le fournisseur d’identité de votre entreprise), ou demandez à un administrateur de l’organisation.',
    },
    'password-reset-link-invalid': {
      title: 'Ce lien de réinitialisation ne fonctionne plus',
      summary:
        'Le lien pour choisir un nouveau mot de passe a déjà été utilisé, date de plus de 30 minutes, a été annulé par une réinitialisation plus récente du même compte, ou n’a pas été envoyé par ce serveur. Chaque lien fonctionne une fois. Rien n’a été modifié.',
      action:
        'Demandez un nouveau lien : choisissez « Mot de passe oublié ? » sur la page de connexion et ouvrez l’e-mail le plus récent.',
    },
    'too-many-password-resets': {
      title: 'Trop de demandes de réinitialisation du mot de passe',
      summary:
        'Des e-mails de réinitialisation ont été demandés trop souvent : pour ce nom d’utilisateur ou cette adresse e-mail (5 par heure par défaut), ou depuis cette adresse réseau (20 par heure). Aucun e-mail n’a été envoyé pour cette demande. Les opérateurs règlent ces limites avec RATE_LIMIT_PASSWORD_RESET_ACCOUNT et RATE_LIMIT_PASSWORD_RESET_ADDRESS.',
      action:
        'Attendez le délai indiqué par l’en-tête Retry-After (affiché sur la page), puis redemandez ; en attendant, ouvrez l’e-mail le plus récent déjà envoyé.',
    },
    'password-not-accepted': {
      title: 'Choisissez un autre mot de passe',
      summary:
        'Le nouveau mot de passe a été refusé (NIST SP 800-63B §3.1.1.2) : il fait moins de 8 caractères, plus de 1024, ou c’est un mot de passe courant, divulgué lors de fuites de données, ou facile à deviner à partir de ceux-ci ou du compte lui-même (nom d’utilisateur, adresse e-mail, nom). Aucune règle n’exige de chiffres, de majuscules ou de symboles. Rien n’a été modifié.',
      action:
        'Choisissez un mot de passe plus long qui ne soit pas un mot ou une expression courante, par exemple plusieurs mots sans rapport ; un gestionnaire de mots de passe peut en créer un.',
    },
    'login-failed': {
      title: 'Nom d’utilisateur ou mot de passe incorrect',
      summary:
        'Le nom d’utilisateur et le mot de passe ne correspondent à aucun compte. La même réponse est donnée pour un nom d’utilisateur inconnu et pour un mot de passe erroné.',
      action:
        'Vérifiez le nom d’utilisateur et le mot de passe, puis réessayez. Après 10 échecs en une heure pour un nom d’utilisateur (ou 100 depuis une adresse), les tentatives suivantes sont refusées pendant un moment.',
    },
    'too-many-login-attempts': {
      title: 'Trop de tentatives de connexion',
      summary:
        'La connexion a été refusée avant la vérification du mot de passe : trop d’échecs pour ce nom d’utilisateur ou depuis cette adresse (par défaut 10 par heure par nom d’utilisateur et 100 par heure par adresse, puis une de plus toutes les 6 minutes), ou trop de tentatives de toute nature depuis cette adresse ou pour cette application (60 et 600 par minute). Les opérateurs règlent ces limites avec RATE_LIMIT_LOGIN_*.',
      action: 'Attendez la durée indiquée par l’en-tête Retry-After (affichée sur la page), puis réessayez.',
    },
    'passkey-sign-in-failed': {
      title: 'Cette clé d’accès n’a pas fonctionné',
      summary:
        'La clé d’accès proposée par le navigateur n’a pas été acceptée : elle n’est pas enregistrée ici (ou a été supprimée), la page de connexion avait expiré ou déjà servi (chaque page ne demande qu’une fois, pendant 5 minutes), le navigateur a indiqué un autre site ou aucune vérification de l’utilisateur (code PIN, empreinte ou visage), ou le compteur de signatures de l’authentificateur a reculé, signe d’une clé copiée. Chaque refus est consigné dans le journal d’audit.',
      action:
        'Réessayez depuis une page de connexion rechargée, ou connectez-vous avec votre mot de passe. Si la clé d’accès a été supprimée de votre compte, ajoutez-la de nouveau depuis la page de compte. Après 10 échecs en une heure pour un compte (ou 100 depuis une adresse), les tentatives suivantes sont refusées pendant un moment.',
    },
    'second-factor-failed': {
      title: 'Ce code n’a pas fonctionné',
      summary:
        'La deuxième étape d’une connexion a été refusée : le code de l’application d’authentification est erroné, décalé de plus de 30 secondes ou déjà utilisé (chaque code ne sert qu’une fois, RFC 6238 §5.2) ; le code de récupération est erroné ou déjà utilisé ; ou, lors de la configuration, le code ne correspond pas à la clé affichée. Rien n’a été enregistré. Les codes erronés comptent comme des mots de passe erronés : après 10 échecs en une heure pour un utilisateur (ou 100 depuis une adresse), les tentatives suivantes sont refusées pendant un moment.',
      action:
        'Saisissez le code affiché maintenant par l’application (ou attendez le suivant si vous venez de l’utiliser), ou utilisez l’un de vos codes de récupération. Si vous avez perdu les deux, demandez à l’opérateur de réinitialiser votre second facteur (gatehouse users reset-factors).',
    },
    'user-code-invalid': {
      title: 'Ce code n’a pas fonctionné',
      summary:
        'Le code saisi sur la page de l’appareil ne correspond à aucun appareil en attente : faute de frappe, code expiré (les codes durent 10 minutes), ou déjà autorisé ou refusé. La casse et les tirets n’ont pas d’importance. Chaque code erroné est compté et consigné (RFC 8628 §5.1).',
      action:
        'Vérifiez le code affiché sur l’appareil et saisissez-le de nouveau. Si l’appareil n’affiche plus de code, relancez la connexion sur l’appareil pour en obtenir un nouveau.',
    },
    'too-many-user-code-attempts': {
      title: 'Trop de codes erronés',
      summary:
        'La page de l’appareil a refusé le code avant de le vérifier : trop de codes erronés depuis cette adresse (par défaut 20 par heure), ou trop de tentatives de toute nature (60 par minute). Cela empêche quiconque de deviner les codes des appareils d’autrui (RFC 8628 §5.1). Les opérateurs règlent ces limites avec RATE_LIMIT_USER_CODE_*.',
      action: 'Attendez la durée indiquée par l’en-tête Retry-After (affichée sur la page), puis réessayez.',
    },
    'csrf-token-invalid': {
      title: 'Ce formulaire a expiré',
      summary:
        'Le formulaire a été envoyé sans son jeton de sécurité, avec un jeton erroné ou après la fin de la session de connexion ; il ne vient donc peut-être pas de ce site. Rien n’a été modifié et rien n’a été accordé.',
      action:
        'Revenez à l’application et recommencez la connexion. Si cela se reproduit, autorisez les cookies pour ce site.',
    },
    'invalid-authorization-request': {
      title: 'Ce lien de connexion n’est pas valide',
      summary:
        'La demande d’autorisation ne nomme aucun client ou un client inconnu, ou une redirect_uri absente ou non enregistrée pour ce client. Le serveur ne peut pas savoir où il serait sûr de vous renvoyer ; il s’arrête donc ici au lieu de rediriger (RFC 6749 §4.1.2.1).',
      action:
        'Revenez à l’application et prévenez son développeur. Il doit envoyer un client_id enregistré et exactement l’une de ses URI de redirection enregistrées, caractère pour caractère (gatehouse clients add --redirect-uri).',
    },
    'fresh-sign-in-required': {
      title: 'Reconnectez-vous pour modifier cela',
      summary:
        'Toute modification de votre façon de vous connecter (configurer ou désactiver la validation en deux étapes, de nouveaux codes de récupération, ajouter, renommer ou supprimer une clé d’accès, dissocier un fournisseur d’identité) exige une connexion datant de moins de 10 minutes, afin que personne ne puisse, en trouvant un navigateur connecté, ajouter ou retirer un moyen d’accès. Rien n’a été modifié.',
      action:
        'Choisissez « Confirmer votre identité » sur la page de compte (votre mot de passe ou une clé d’accès), puis effectuez la modification.',
    },
    'not-found': {
      title: 'Introuvable',
      summary: 'Il n’y a aucune ressource à cette URL.',
      action: 'Vérifiez l’URL ; les métadonnées du serveur et le document OpenAPI indiquent ce qui existe.',
    },
  },
};
