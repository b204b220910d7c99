import type { ProblemProseTable } from '../catalog.js';

/**
 * French (vous) prose of every page of the error catalog, by slug: what a page says of the entry. Wire
 * values (parameter and field names, codes, headers, settings, the exact English `detail` texts) stay as
 * the wire has them.
 */
export const frProblems: ProblemProseTable = {
  'organization-not-member': {
    title: 'Vous n’êtes pas membre de cette organisation',
    summary:
      'L’application a demandé à vous connecter pour une organisation (son paramètre organization) qui n’existe pas sur ce serveur ou dont votre compte n’est pas membre. Rien n’a été accordé.',
    action:
      'Revenez à l’application et choisissez l’une de vos organisations, ou demandez à un administrateur de l’organisation de vous ajouter.',
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
  'invalid-request': {
    title: 'Requête invalide',
    summary:
      'Il manque à la requête un paramètre obligatoire, elle répète un paramètre ou son corps n’est pas encodé en formulaire ; au point de terminaison d’autorisation, il lui manque un code_challenge PKCE en S256.',
    action: 'Corrigez la requête comme l’indique error_description ; renvoyée telle quelle, elle échoue de nouveau.',
  },
  'invalid-client': {
    title: 'Échec de l’authentification du client',
    summary:
      'Le client n’a pas pu être authentifié : client inconnu (ou, au point de terminaison d’autorisation d’appareil, une URL client_id dont le document de métadonnées d’identifiant client n’a pas pu être récupéré, n’est pas valide ou n’est pas accepté ici), secret erroné, aucun identifiant, plus d’une méthode d’authentification, ou une méthode que le client n’a pas le droit d’utiliser (un client private_key_jwt ou du profil FAPI 2.0 a envoyé un secret ; son assertion client a été signée avec un autre algorithme que PS256, ES256 ou EdDSA).',
    action:
      'C’est une erreur de configuration : vérifiez l’identifiant du client, le secret et la méthode d’authentification. Conservez vos jetons ; ne réauthentifiez pas l’utilisateur.',
  },
  'invalid-grant': {
    title: 'Autorisation refusée',
    summary:
      'Le jeton d’actualisation ou le code d’autorisation est expiré, révoqué, au-delà de sa limite de rotation, délivré à un autre client ou inconnu. Le refus est définitif.',
    action:
      'Ne réessayez pas le même jeton : il échouera de nouveau, maintenant et plus tard. Abandonnez-le et faites repasser l’utilisateur par le parcours d’autorisation complet pour obtenir une nouvelle autorisation. Vous pouvez aussi introspecter le jeton pour confirmer sa révocation.',
  },
  'unauthorized-client': {
    title: 'Type d’autorisation non permis pour ce client',
    summary:
      'Le client n’est pas enregistré pour le type d’autorisation qu’il a utilisé ou, au point de terminaison d’autorisation, pour le parcours par code d’autorisation.',
    action:
      'C’est une erreur de configuration : demandez à l’opérateur de permettre ce type d’autorisation au client, ou utilisez-en un qui est permis.',
  },
  'unsupported-grant-type': {
    title: 'Type d’autorisation non pris en charge',
    summary:
      'Le grant_type ne fait pas partie de ceux que ce serveur prend en charge (authorization_code, refresh_token, client_credentials, urn:ietf:params:oauth:grant-type:device_code).',
    action:
      'Utilisez un type d’autorisation pris en charge ; les métadonnées du serveur les listent dans grant_types_supported.',
  },
  'invalid-scope': {
    title: 'Portée invalide',
    summary: 'La portée demandée est mal formée, ou dépasse ce que le client ou l’autorisation permet.',
    action:
      'Ne demandez que des portées pour lesquelles le client est enregistré ; lors d’une actualisation, seulement les portées de l’autorisation d’origine.',
  },
  'unsupported-token-type': {
    title: 'Ce type de jeton ne peut pas être révoqué',
    summary: 'Les jetons d’accès sont des JWT signés de courte durée et ne sont pas révoqués un par un.',
    action:
      'Révoquez plutôt le jeton d’actualisation : cela révoque toute l’autorisation, et l’API refuse les jetons d’accès d’une autorisation révoquée.',
  },
  'invalid-redirect-uri': {
    title: 'URI de redirection invalide',
    summary:
      'Un enregistrement de client (RFC 7591 §3.2.2) n’a nommé aucune URI de redirection pour l’autorisation par code, ou une URI qui n’est ni une URI https absolue sans fragment, ni du http simple sur une adresse IP de bouclage littérale (127.0.0.1 ou [::1], RFC 8252 §7.3). Rien n’a été enregistré ni modifié.',
    action:
      'Enregistrez des URI de redirection https ou, pour une application native ou un agent sur cette machine, http://127.0.0.1/… ou http://[::1]/… (tout port convient au moment de l’autorisation).',
  },
  'invalid-client-metadata': {
    title: 'Métadonnées de client invalides',
    summary:
      'Un enregistrement de client (RFC 7591 §2, §3.2.2) a envoyé des métadonnées que le serveur n’accepte pas : un champ du mauvais type, des grant_types et response_types qui ne concordent pas, une méthode d’authentification ou une portée que le serveur n’offre pas, un client confidentiel sans jeton d’accès initial, ou le profil fapi2 pour un client qui ne pourrait pas respecter FAPI 2.0. Rien n’a été enregistré ni modifié.',
    action:
      'Corrigez le champ que nomme error_description et enregistrez de nouveau ; les métadonnées du serveur listent les types d’autorisation, portées et méthodes d’authentification offerts.',
  },
  'invalid-target': {
    title: 'Ressource inconnue',
    summary:
      'La requête d’autorisation ou de jeton a nommé une ressource (RFC 8707 §2) que ce serveur ne sert pas : ni son émetteur ni son API REST ({issuer}/v2) ; ou un échange de jeton (RFC 8693 §2.2.2) a nommé une audience ou une ressource que la politique d’échange de jetons du client ne liste pas. Aucun code ni jeton n’a été délivré.',
    action:
      'Envoyez telle quelle la valeur resource des métadonnées de la ressource protégée (RFC 9728), ou aucune ressource pour un jeton valable pour tout le serveur. Pour un échange de jeton, demandez à l’opérateur d’ajouter la cible aux audiences d’échange de jetons du client.',
  },
  'access-denied': {
    title: 'Accès refusé',
    summary:
      'L’utilisateur a refusé la demande d’autorisation sur la page de consentement. Le serveur d’autorisation l’envoie à la redirect_uri ; aucun code n’a été délivré. Un appareil qui interroge le point de terminaison de jeton le reçoit dès que l’utilisateur a refusé son code d’appareil sur la page /device (RFC 8628 §3.5).',
    action:
      'Dites à l’utilisateur que l’application n’a pas reçu l’accès, et proposez de recommencer le parcours d’autorisation quand il le souhaitera. Ne réessayez pas de vous-même.',
  },
  'unsupported-response-type': {
    title: 'Type de réponse non pris en charge',
    summary:
      'La demande d’autorisation a demandé un response_type autre que code. Seul le parcours par code d’autorisation avec PKCE est servi ; le parcours implicite (token) ne l’est pas.',
    action:
      'Envoyez response_type=code avec un code_challenge PKCE en S256, puis échangez le code au point de terminaison de jeton.',
  },
  'server-error': {
    title: 'Erreur du serveur',
    summary: 'Le serveur a rencontré une condition inattendue. Rien n’a changé pour le jeton.',
    action: 'Réessayez avec un délai exponentiel ; signalez le problème à l’opérateur s’il persiste.',
  },
  'temporarily-unavailable': {
    title: 'Temporairement indisponible',
    summary:
      'Le serveur est surchargé ou son stockage est occupé (503), ou le client ou son adresse a envoyé plus de requêtes que sa limite de débit ne le permet (429). Rien n’a changé pour le jeton.',
    action:
      'Réessayez après le délai de Retry-After (en secondes entières), avec un délai exponentiel. En cas de 429, envoyez moins de requêtes : réutilisez les jetons d’accès jusqu’à leur expiration au lieu de les actualiser tôt, et gardez brièvement en cache les réponses d’introspection.',
  },
  'login-required': {
    title: 'Connexion requise',
    summary:
      'La demande d’authentification indiquait prompt=none, mais l’utilisateur n’est pas connecté (ou s’est connecté il y a plus longtemps que max_age ne le permet). Aucune page n’a été affichée.',
    action:
      'Faites repasser l’utilisateur par la demande d’autorisation sans prompt=none, pour qu’il puisse se connecter.',
  },
  'consent-required': {
    title: 'Consentement requis',
    summary:
      'La demande d’authentification indiquait prompt=none, mais l’utilisateur n’a pas accordé à cette application la portée demandée. Aucune page n’a été affichée.',
    action:
      'Faites repasser l’utilisateur par la demande d’autorisation sans prompt=none, pour qu’il puisse donner son consentement.',
  },
  'interaction-required': {
    title: 'Interaction requise',
    summary:
      'La demande d’authentification indiquait prompt=none, mais elle exige une action de l’utilisateur : son id_token_hint nomme un autre utilisateur que celui qui est connecté, qui devrait changer de compte. Aucune page n’a été affichée.',
    action: 'Faites repasser l’utilisateur par la demande d’autorisation sans prompt=none.',
  },
  'bearer-invalid-token': {
    title: 'Jeton d’accès invalide',
    summary:
      'Le point de terminaison userinfo n’a reçu aucun jeton d’accès, ou un jeton expiré, non signé par ce serveur, délivré par un autre émetteur ou pour une autre audience (un jeton créé avec un autre ISSUER), ou dont l’autorisation a été révoquée ; ou un point de terminaison d’enregistrement de client (RFC 7591 §3, RFC 7592 §3) n’a reçu aucun jeton d’accès initial ou d’enregistrement valide.',
    action:
      'Actualisez le jeton d’accès (ou reconnectez l’utilisateur) et réessayez avec le nouveau. Aux points de terminaison d’enregistrement : demandez un nouveau jeton d’accès initial à l’opérateur, ou enregistrez de nouveau le client.',
  },
  'bearer-insufficient-scope': {
    title: 'Portée insuffisante',
    summary: 'Le jeton d’accès n’a pas reçu la portée openid, que le point de terminaison userinfo exige.',
    action: 'Demandez la portée openid dans la demande d’autorisation.',
  },
  'authorization-pending': {
    title: 'Autorisation en attente',
    summary:
      'Le code d’appareil est valide, mais l’utilisateur n’a pas encore saisi le code utilisateur ni approuvé ou refusé la demande sur la page /device (RFC 8628 §3.5).',
    action:
      'Continuez d’interroger le point de terminaison de jeton avec le même device_code, en attendant l’intervalle (5 secondes, sauf indication contraire de la réponse d’autorisation d’appareil) entre les requêtes.',
  },
  'slow-down': {
    title: 'Interrogation trop rapide',
    summary:
      'L’appareil a interrogé le point de terminaison de jeton plus tôt que l’intervalle ne le permet. L’autorisation est toujours en attente, et l’intervalle de ce code d’appareil est désormais plus long de 5 secondes (RFC 8628 §3.5).',
    action:
      'Ajoutez 5 secondes à l’intervalle d’interrogation pour cette requête et toutes les suivantes de ce code d’appareil, puis continuez d’interroger.',
  },
  'expired-token': {
    title: 'Code d’appareil expiré',
    summary:
      'Le code d’appareil a expiré (10 minutes après sa délivrance) avant d’être approuvé et échangé ; la session d’autorisation d’appareil est terminée (RFC 8628 §3.5).',
    action:
      'Arrêtez d’interroger. Recommencez avec une nouvelle demande d’autorisation d’appareil et montrez à l’utilisateur le nouveau code utilisateur.',
  },
  'invalid-request-object-error': {
    title: 'Objet de requête invalide',
    summary:
      'Le paramètre request n’est pas un objet de requête que le serveur accepte (RFC 9101 §7) : pas un JWT signé par l’une des clés enregistrées du client avec un algorithme asymétrique, ou son iss n’est pas le client_id, son aud n’est pas l’émetteur, son exp manque ou est dépassé, son nbf est dans le futur, ou il nomme un autre client.',
    action:
      'Signez l’objet de requête avec une clé des jwks ou du jwks_uri du client, avec iss égal au client_id, aud égal à l’identifiant de l’émetteur et exp quelques minutes dans le futur, puis renvoyez-le.',
  },
  'token-invalid-dpop-proof': {
    title: 'Preuve DPoP invalide',
    summary:
      'La requête de jeton, ou la requête d’autorisation poussée (RFC 9449 §10.1), portait un en-tête DPoP (RFC 9449 §4) qui n’est pas une seule preuve valide : pas un JWS compact de typ dpop+jwt, un algorithme hors de dpop_signing_alg_values_supported, un jwk privé ou mal formé, une mauvaise signature, des htm ou htu qui ne désignent pas cette requête, un iat hors de la fenêtre, ou un jti déjà utilisé ; ou le client est enregistré avec dpop_bound_access_tokens ou le profil FAPI 2.0 (profile fapi2) et n’a envoyé aucune preuve au point de terminaison de jeton.',
    action:
      'Envoyez exactement un en-tête DPoP avec une preuve neuve pour cette requête (htm POST, htu le point de terminaison appelé, de jeton ou de requête d’autorisation poussée, sans requête de recherche, un nouveau jti, l’heure actuelle comme iat), signée avec un algorithme que le serveur annonce.',
  },
  'token-use-dpop-nonce': {
    title: 'Nonce DPoP requis',
    summary:
      'Le serveur exige dans les preuves DPoP un nonce fourni par le serveur (RFC 9449 §8) et la preuve n’en avait pas, ou en avait un qui n’est plus valable. La réponse porte le nonce à utiliser dans son en-tête DPoP-Nonce.',
    action:
      'Créez une nouvelle preuve dont la revendication nonce est l’en-tête DPoP-Nonce de cette réponse, et renvoyez la requête.',
  },
  'missing-required-field': {
    title: 'Champ obligatoire manquant',
    summary:
      'Un champ obligatoire est absent du corps JSON, ou vaut null là où son schéma n’autorise pas null. Le detail est exactement : Missing required field \'<field_name>\' in request body. Chaque champ manquant est listé dans errors. Null est une valeur, et non un champ manquant, seulement là où le schéma l’autorise explicitement : nullable: true en OpenAPI 3.0, un type listant "null" en OpenAPI 3.1.',
    action:
      'Ajoutez le champ avec une valeur valide et renvoyez. Validez les corps avec le schéma (GET /v2/openapi.json) avant l’envoi. Passer de POST à PUT n’évite pas la validation.',
  },
  'invalid-field-value': {
    title: 'Valeur de champ invalide',
    summary:
      'Un champ est présent mais sa valeur n’est pas acceptable : une valeur vide ou mal formatée, un mauvais type, un champ que le schéma refuse (additionalProperties: false), ou un champ en lecture seule comme id envoyé avec une autre valeur que celle de l’enregistrement (ou envoyé tout court lors d’une création).',
    action: 'Envoyez une valeur correctement formatée pour chaque champ listé dans errors.',
  },
  'malformed-json': {
    title: 'JSON mal formé',
    summary:
      'Le corps de la requête n’est pas du JSON valide en UTF-8, imbrique tableaux et objets sur plus de 64 niveaux, ou est vide là où un corps est requis.',
    action: 'Envoyez un document JSON bien formé.',
  },
  'invalid-parameter': {
    title: 'Paramètre de requête invalide',
    summary:
      'Un paramètre de requête a une valeur que le point de terminaison n’accepte pas, comme une taille de page hors limites ou un curseur qu’il n’a pas fourni.',
    action: 'Envoyez le paramètre comme l’indique le detail, ou omettez-le.',
  },
  'unsupported-media-type': {
    title: 'Type de média non pris en charge',
    summary:
      'Le corps de la requête a un Content-Type que ce point de terminaison n’accepte pas, ou un Content-Encoding (comme gzip) : les corps ne sont lus que tels qu’envoyés (cette réponse porte Accept-Encoding: identity).',
    action:
      'Envoyez Content-Type: application/json (application/merge-patch+json pour PATCH), et le corps sans Content-Encoding.',
  },
  'payload-too-large': {
    title: 'Corps trop volumineux',
    summary: 'Le corps de la requête est plus grand que ce que le serveur accepte.',
    action: 'Envoyez un corps plus petit.',
  },
  'invalid-token': {
    title: 'Jeton d’accès invalide',
    summary:
      "Le jeton d’accès bearer est absent, mal formé, expiré, signé par une clé inconnue, ou appartient à une autorisation révoquée ; ou les clés de ce serveur l’ont signé pour un autre émetteur ou une autre audience (créé avec un autre ISSUER), et le detail est alors : The access token was issued by '<iss>', not by this server ('<issuer>'). ou The access token is for the audience '<aud>', not for this server ('<issuer>').",
    action:
      'Actualisez le jeton d’accès ; si l’actualisation est refusée avec invalid_grant, refaites le parcours d’autorisation.',
  },
  'insufficient-scope': {
    title: 'Portée insuffisante',
    summary:
      "Le jeton d’accès est valide mais il lui manque la portée dont cette opération a besoin ; le detail est : This operation needs the scope '<scope>'. (ou '<scope>' or '<scope>'. quand plusieurs possibilités suffisent).",
    action: 'Obtenez un jeton avec la portée nommée dans l’en-tête WWW-Authenticate.',
  },
  'insufficient-role': {
    title: 'Rôle insuffisant',
    summary:
      "Le jeton d’accès est valide mais son détenteur n’a pas un rôle dont cette opération a besoin (RFC 9068 §2.2.3.1 `roles`, comme l’opération le déclare dans `x-required-roles`) ; le detail est : This operation needs the role '<role>'. (ou '<role>' or '<role>'. quand plusieurs suffisent). Sur l’API d’administration : le jeton d’un utilisateur est pour l’audience '{issuer}/admin/v1' et son utilisateur détient admin, user-manager ou auditor, selon ce que l’opération permet.",
    action:
      'Demandez le rôle à un opérateur (gatehouse roles assign), puis actualisez le jeton d’accès : les rôles changent au jeton suivant.',
  },
  'step-up-required': {
    title: 'Reconnectez-vous pour cette opération',
    summary:
      'Une opération dangereuse de l’API d’administration (supprimer un client, un utilisateur, un fournisseur amont, une organisation, un groupe ou un rôle, un nouveau secret client, faire tourner ou retirer une clé de signature ; le document marque chacune de x-step-up-max-age) a été appelée avec le jeton d’accès d’un utilisateur dont la connexion (son auth_time, RFC 9068 §2.2.1) date de plus de 300 secondes, ou qui ne dit pas quand son utilisateur s’est connecté. Le défi WWW-Authenticate porte error="insufficient_user_authentication" avec max_age="300" (RFC 9470 §3). Le jeton propre d’un client d’administration (client_credentials) n’a pas de connexion et n’est pas concerné. Rien n’a été modifié.',
    action:
      'Renvoyez l’utilisateur au point de terminaison d’autorisation avec max_age=300 et prompt=login (OpenID Connect Core §3.1.2.1), puis refaites l’opération avec le nouveau jeton d’accès.',
  },
  'invalid-dpop-proof': {
    title: 'Preuve DPoP invalide',
    summary:
      'Le jeton d’accès est lié à DPoP (RFC 9449) et sa preuve manque ou est refusée : l’en-tête DPoP n’est pas un seul JWS compact de typ dpop+jwt signé avec un algorithme accepté par la clé publique qu’il porte, ou son htm, htu, iat, ath ou jti ne correspond pas à cette requête (une preuve déjà utilisée est refusée), ou il est signé par une autre clé que celle à laquelle le jeton est lié. Le défi DPoP de WWW-Authenticate liste les algorithmes acceptés.',
    action:
      'Envoyez Authorization: DPoP <token> avec une preuve neuve pour cette requête (htm, htu sans requête de recherche, un nouveau jti, l’ath du jeton) signée par la clé à laquelle le jeton est lié.',
  },
  'use-dpop-nonce': {
    title: 'Nonce DPoP requis',
    summary:
      'Il manque à la preuve DPoP le nonce que fournit ce serveur, ou elle en porte un qu’il n’accepte plus (RFC 9449 §9). La réponse porte le nonce actuel dans son en-tête DPoP-Nonce.',
    action:
      'Créez une nouvelle preuve dont la revendication nonce est l’en-tête DPoP-Nonce de cette réponse, et réessayez une fois.',
  },
  'owner-required': {
    title: 'Un utilisateur est requis',
    summary:
      'Les enregistrements de la collection appartiennent aux utilisateurs qui les ont créés (x-gatehouse-ownership: owner dans le document OpenAPI), et le jeton d’accès n’agit pour aucun utilisateur : il a été délivré au client lui-même (l’autorisation client_credentials). x-gatehouse-client-access dans le document dit ce qu’un tel jeton peut y faire : none (par défaut pour les enregistrements possédés), read ou read-write.',
    action:
      'Appelez l’API avec un jeton d’accès accordé par un utilisateur (parcours par code d’autorisation ou d’appareil) ; un service qui doit atteindre les enregistrements de tous les utilisateurs demande à l’opérateur de déclarer x-gatehouse-client-access pour la collection.',
  },
  'method-not-allowed': {
    title: 'Méthode non autorisée',
    summary: 'La ressource existe mais ne prend pas en charge cette méthode HTTP.',
    action: 'Utilisez l’une des méthodes listées dans l’en-tête Allow.',
  },
  'precondition-failed': {
    title: 'Échec de la précondition',
    summary: 'If-Match nomme une version de l’enregistrement qui n’est plus la version actuelle.',
    action: 'Récupérez de nouveau l’enregistrement, réappliquez votre modification et envoyez-la avec le nouvel ETag.',
  },
  'invalid-operator-input': {
    title: 'Saisie de l’opérateur invalide',
    summary:
      'Une requête d’administration nomme quelque chose qui n’existe pas, qui existe déjà, ou qui enfreint une règle du serveur (par exemple une portée plus large que ce que le client peut utiliser). Le detail dit laquelle.',
    action: 'Corrigez la requête comme l’indique le detail et renvoyez-la ; la même requête sera de nouveau refusée.',
  },
  conflict: {
    title: 'Existe déjà',
    summary:
      'Une requête d’administration crée quelque chose dont l’identifiant est pris : un identifiant de client ou un nom d’utilisateur qui existe déjà. Rien n’a été écrit.',
    action:
      'Choisissez un autre identifiant, ou modifiez l’existant (PUT) au lieu de le créer ; la même requête sera de nouveau refusée.',
  },
  'invalid-email-address': {
    title: 'Cette adresse e-mail ne peut pas recevoir de courrier',
    summary:
      'L’adresse e-mail n’est pas une seule adresse de la forme nom@domaine : elle est vide, dépasse 254 caractères (RFC 5321 §4.5.3.1.3) ou a une partie nom de plus de 64, contient un nom d’affichage, un groupe, plusieurs adresses, des guillemets, des espaces, un saut de ligne ou un autre caractère de contrôle (un saut de ligne pourrait ajouter un en-tête au message), ou son domaine n’est pas un nom d’hôte valide. Rien n’a été mis en file et aucun courrier n’a été envoyé.',
    action: 'Corrigez l’adresse (par exemple alice@example.com) et renvoyez-la.',
  },
  'invalid-email-message': {
    title: 'Cet e-mail n’a pas pu être mis en file',
    summary:
      'Un message remis à la boîte d’envoi enfreint une règle du courrier : sa ligne d’objet contient un saut de ligne ou un autre caractère de contrôle (qui pourrait ajouter un en-tête au message) ou dépasse 998 caractères (RFC 5322 §2.1.1), un corps est vide, ou son type ou sa langue est mal formé. Rien n’a été mis en file et aucun courrier n’a été envoyé ; le detail dit quelle partie.',
    action:
      'C’est une faute du serveur ou du texte qu’il a reçu (par exemple un nom avec un saut de ligne affiché dans l’objet) ; corrigez ce texte et réessayez, ou prévenez l’opérateur.',
  },
  'email-verification-link-invalid': {
    title: 'Ce lien de vérification ne fonctionne plus',
    summary:
      'Le lien de vérification d’une adresse e-mail a déjà été utilisé, date de plus de 24 heures, a été annulé par un e-mail de vérification plus récent, le compte a changé d’adresse depuis, ou ce n’est pas un lien envoyé par ce serveur. Chaque lien fonctionne une fois. Rien n’a été modifié.',
    action:
      'Connectez-vous et ouvrez la page de votre compte : elle indique si l’adresse est vérifiée, et envoie un nouvel e-mail si elle ne l’est pas.',
  },
  'verification-code-invalid': {
    title: 'Ce code de vérification n’a pas fonctionné',
    summary:
      'Le code à six chiffres n’est pas celui de l’e-mail de vérification le plus récent, a déjà été utilisé, ou date de plus de 24 heures. Après 10 codes erronés en une heure pour un compte, plus aucun code n’est vérifié pendant un moment (429, avec Retry-After). Rien n’a été modifié.',
    action:
      'Saisissez le code de l’e-mail le plus récent, ou ouvrez plutôt son lien ; ou demandez un nouvel e-mail depuis la page de votre compte.',
  },
  'email-address-missing': {
    title: "Ce compte n'a aucune adresse e-mail à vérifier",
    summary:
      "Le serveur exige une adresse e-mail vérifiée avant qu'une connexion aboutisse (EMAIL_VERIFICATION=required), et ce compte n'a aucune adresse : aucun code ne peut être envoyé. Le mot de passe était correct ; la connexion s'arrête ici et rien n'a été modifié.",
    action:
      "Demandez à un administrateur d'ajouter une adresse e-mail au compte (gatehouse users update NOM --email ADRESSE, ou l'API d'administration), puis reconnectez-vous.",
  },
  'upstream-unavailable': {
    title: 'Votre fournisseur d’identité ne répond pas',
    summary:
      'La connexion passe par un fournisseur d’identité auquel Gatehouse fait confiance (fédération), et il n’a pas répondu à temps, a répondu par une erreur serveur, ou son document de découverte n’a pas pu être lu. Personne n’a été connecté et rien n’a été modifié.',
    action:
      'Patientez un instant et choisissez « Réessayer ». Si l’échec persiste, le fournisseur d’identité est en panne ou injoignable depuis Gatehouse : prévenez l’opérateur, ou connectez-vous autrement.',
  },
  'upstream-misconfigured': {
    title: 'La connexion avec ce fournisseur d’identité est mal configurée',
    summary:
      'Gatehouse a refusé d’envoyer une requête au fournisseur d’identité, qui n’a donc jamais été sollicité : sa configuration enfreint une règle propre à Gatehouse (le detail la nomme), comme du http simple vers un hôte qui n’est pas de bouclage. Personne n’a été connecté. Rien n’indique que le fournisseur soit en panne.',
    action:
      'Connectez-vous autrement et transmettez le detail à l’opérateur. Opérateur : corrigez l’entrée du fournisseur (docs/federation.md, Configuring upstreams) et appliquez-la de nouveau.',
  },
  'upstream-access-denied': {
    title: 'Votre fournisseur d’identité a refusé la connexion',
    summary:
      'Le fournisseur d’identité a répondu access_denied (RFC 6749 §4.1.2.1) : vous avez annulé, ou il ne permet pas à votre compte d’utiliser cette application. Personne n’a été connecté.',
    action:
      'Recommencez la connexion depuis l’application, ou demandez l’accès à l’administrateur de votre fournisseur d’identité.',
  },
  'upstream-login-required': {
    title: 'Votre fournisseur d’identité vous demande de vous connecter',
    summary:
      'Le fournisseur d’identité a répondu login_required, interaction_required ou consent_required (OIDC Core §3.1.2.6) : il ne pouvait pas vous connecter sans vous montrer une page. Personne n’a été connecté.',
    action: 'Recommencez la connexion depuis l’application ; le fournisseur d’identité affichera sa page de connexion.',
  },
  'upstream-sign-in-failed': {
    title: 'Votre fournisseur d’identité n’a pas pu vous connecter',
    summary:
      'Le fournisseur d’identité a renvoyé le navigateur avec une erreur autre que access_denied ou login_required (RFC 6749 §4.1.2.1 ; le detail la nomme), ou un lien portant une telle erreur a été ouvert. Personne n’a été connecté.',
    action:
      'Recommencez la connexion depuis l’application. Si cela se reproduit, transmettez à l’opérateur l’erreur du detail : le fournisseur refuse peut-être ce que Gatehouse lui demande (une portée, le client).',
  },
  'upstream-code-refused': {
    title: 'Cette connexion n’a pas pu aboutir',
    summary:
      'Le fournisseur d’identité a refusé le code rapporté par ce navigateur (invalid_grant ou invalid_request, RFC 6749 §5.2) : il a déjà été utilisé, a expiré, ou a été délivré pour une autre connexion, par exemple un lien ouvert dans un autre navigateur. Il a été refusé et consigné ; personne n’a été connecté.',
    action:
      'Recommencez la connexion depuis l’application, dans ce navigateur, et terminez-la là ; un lien de connexion ne peut pas être ouvert deux fois ni dans un autre navigateur.',
  },
  'upstream-error': {
    title: 'Votre fournisseur d’identité a répondu par une erreur',
    summary:
      'Le fournisseur d’identité a répondu à Gatehouse lui-même quelque chose d’inutilisable : une erreur OAuth à son point de terminaison de jeton ou userinfo qui ne concerne pas le code (invalid_client, unauthorized_client : le detail la nomme), un document de découverte nommant un autre émetteur, ou une réponse hors protocole. Personne n’a été connecté.',
    action:
      'Connectez-vous autrement et transmettez le detail à l’opérateur : l’enregistrement de Gatehouse chez le fournisseur, ou le fournisseur lui-même, doit être corrigé.',
  },
  'upstream-token-invalid': {
    title: 'La réponse du fournisseur d’identité a été refusée',
    summary:
      'Le jeton d’identité ou le retour du fournisseur d’identité a échoué à la validation (OIDC Core §3.1.3.7, RFC 9207) : non signé (alg none) ou mal signé, délivré par un autre émetteur, pour une autre audience, expiré, avec un mauvais nonce, ou un retour nommant un autre émetteur. Il a été refusé et consigné dans le journal d’audit ; personne n’a été connecté.',
    action:
      'Recommencez la connexion depuis l’application. Si cela se reproduit, prévenez l’opérateur : la réponse a peut-être été falsifiée.',
  },
  'federation-state-invalid': {
    title: 'Cette connexion a expiré ou a déjà été utilisée',
    summary:
      'La réponse du fournisseur d’identité portait un state que Gatehouse n’a pas envoyé à ce navigateur, a envoyé il y a plus de dix minutes, ou qui a déjà servi (RFC 6749 §10.12, RFC 9700 §4.7). Ce peut être un lien falsifié ou rejoué. Il a été refusé et consigné ; personne n’a été connecté.',
    action: 'Revenez à l’application et recommencez la connexion, dans le même navigateur.',
  },
  'federation-no-provider': {
    title: 'Aucun fournisseur d’identité pour cette adresse',
    summary:
      'L’adresse e-mail saisie appartient à un domaine qu’aucun fournisseur d’identité de ce serveur ne dessert, ou le fournisseur choisi n’est plus configuré.',
    action: 'Vérifiez l’adresse, ou connectez-vous avec votre nom d’utilisateur et votre mot de passe.',
  },
  'federation-no-account': {
    title: 'Aucun compte pour cette connexion',
    summary:
      'Le fournisseur d’identité vous a connecté, mais aucun compte local n’est lié à cette identité et l’opérateur ne permet pas à ce fournisseur de créer des comptes à la première connexion.',
    action:
      'Demandez à l’opérateur de créer votre compte, ou connectez-vous avec votre nom d’utilisateur et votre mot de passe et liez le fournisseur depuis votre compte.',
  },
  'federation-unlink-refused': {
    title: 'C’est votre seul moyen de vous connecter',
    summary:
      'Délier ce fournisseur d’identité laisserait le compte sans aucun moyen de connexion : il n’a pas de mot de passe ni d’autre fournisseur lié. Rien n’a été modifié.',
    action: 'Demandez d’abord à l’opérateur de définir un mot de passe pour votre compte, puis déliez le fournisseur.',
  },
  'organization-domain-public': {
    title: 'Domaine de messagerie public',
    summary:
      'Une requête d’administration donne à une organisation le domaine e-mail d’un fournisseur de messagerie public (gmail.com, outlook.com, yahoo.com et autres) ou d’adresses jetables. N’importe qui peut y avoir une adresse, donc un tel domaine ne dit rien de qui travaille pour l’organisation : il ferait de parfaits inconnus des membres à la connexion. Rien n’a été écrit.',
    action:
      'Donnez à l’organisation un domaine qui lui appartient (son domaine d’entreprise). Les membres ayant une adresse chez un fournisseur public sont ajoutés un par un (gatehouse orgs members add).',
  },
  'internal-error': {
    title: 'Erreur interne du serveur',
    summary: 'Le serveur a rencontré une condition inattendue ; rien n’a été écrit.',
    action: 'Réessayez avec un délai exponentiel ; signalez le problème à l’opérateur s’il persiste.',
  },
  'service-unavailable': {
    title: 'Service indisponible',
    summary: 'Le serveur est surchargé ou son stockage est occupé ; rien n’a été écrit.',
    action: 'Réessayez après le délai de Retry-After, avec un délai exponentiel.',
  },
  'not-ready': {
    title: 'Pas prêt',
    summary:
      'La sonde de disponibilité (GET /health/ready) a trouvé le serveur incapable de servir : son stockage n’a pas répondu dans le délai de la sonde, il manque à la base de données des migrations dont cette version a besoin, ou aucune clé de signature n’a pu être chargée. Le detail dit laquelle. Le processus lui-même est vivant (GET /health/live).',
    action:
      'Répartiteurs de charge : envoyez les requêtes à une autre instance jusqu’à ce que celle-ci réponde de nouveau 200. Opérateurs : démarrez ou rendez joignable la base de données, lancez gatehouse migrate, ou gatehouse keys rotate --now, comme l’indique le detail.',
  },
  'client-metadata-document-unavailable': {
    title: 'La description de cette application n’a pas pu être récupérée',
    summary:
      'Le client_id est l’URL https d’un document de métadonnées d’identifiant client (draft-ietf-oauth-client-id-metadata-document), et le serveur n’a pas pu le récupérer en sécurité : son hôte se résout en une adresse privée, de bouclage, lien-local ou autrement non publique, ou l’URL a répondu par une redirection (jamais suivie), un statut d’erreur, un document au-delà de la taille limite, ou rien dans le délai imparti. Le detail dit laquelle. Personne n’a été connecté et rien n’a été accordé.',
    action:
      'Revenez à l’application et prévenez son développeur. Il doit servir le document exactement à l’URL client_id, en https depuis une adresse publique, avec le statut 200, sans redirection, et léger (quelques kilo-octets). Les opérateurs d’un déploiement privé peuvent autoriser des adresses avec CLIENT_ID_METADATA_ALLOW_ADDRESSES (docs/agents.md).',
  },
  'client-metadata-document-invalid': {
    title: 'La description de cette application n’est pas valide',
    summary:
      'Le document de métadonnées d’identifiant client a été récupéré mais ne peut pas décrire ce client : ce n’est pas un objet JSON, son client_id n’est pas exactement l’URL d’où il a été récupéré, il demande un secret partagé (client_secret_basic, client_secret_post ou un champ client_secret), private_key_jwt sans ses clés, des autorisations autres que authorization_code, l’autorisation par code d’appareil et refresh_token (et au moins l’une des deux premières), ou des URI de redirection qui ne pourraient pas être enregistrées (https, ou http sur une adresse IP de bouclage littérale). Le detail dit laquelle.',
    action:
      'Revenez à l’application et prévenez son développeur : le document doit suivre draft-ietf-oauth-client-id-metadata-document §4 et les règles d’URI de redirection des clients enregistrés (docs/agents.md).',
  },
  'client-metadata-document-not-allowed': {
    title: 'Cette application n’est pas autorisée ici',
    summary:
      'Le client_id est l’URL d’un document de métadonnées d’identifiant client sur un hôte que l’opérateur de ce serveur n’accepte pas (CLIENT_ID_METADATA_DOCUMENTS=allowlist sans l’hôte dans CLIENT_ID_METADATA_ALLOW_HOSTS, ou l’hôte dans CLIENT_ID_METADATA_DENY_HOSTS), ou pas une URL qu’un tel document peut avoir (https, un chemin, sans fragment, identifiants ni segments point). Rien n’a été récupéré.',
    action:
      'Demandez à l’opérateur du serveur d’autoriser l’hôte de l’application, ou utilisez un client enregistré auprès du serveur (gatehouse clients add, ou /register).',
  },
  'invalid-request-uri': {
    title: 'Ce lien de connexion a expiré ou a déjà été utilisé',
    summary:
      'La demande d’autorisation nomme une request_uri inconnue, expirée (une requête poussée vit environ une minute), déjà utilisée une fois, ou poussée par un autre client que celui que nomme son client_id, ou une request_uri d’un type que ce serveur ne récupère pas (RFC 9126 §4, RFC 9101 §6.2). Sans la requête poussée, le serveur ne peut pas savoir où il serait sûr de vous renvoyer.',
    action:
      'Revenez à l’application et recommencez. Le développeur doit pousser la demande d’autorisation (POST /par) juste avant d’envoyer le navigateur vers /authorize avec le client_id et la request_uri reçue, une seule fois.',
  },
  'invalid-request-object': {
    title: 'Ce lien de connexion n’est pas correctement signé',
    summary:
      'La demande d’autorisation porte un objet de requête (le paramètre request, RFC 9101) qui n’est pas un JWT signé par l’une des clés enregistrées du client avec un algorithme accepté, ou dont l’iss n’est pas le client_id, dont l’aud n’est pas l’émetteur de ce serveur, qui a expiré ou n’est pas encore valide, ou dont le client_id diffère de celui de la requête (RFC 9101 §6.3).',
    action:
      'Revenez à l’application et prévenez son développeur : l’objet de requête doit être signé avec une clé des jwks ou du jwks_uri du client (ES256, PS256, RS256, EdDSA et apparentés), avec iss égal au client_id, aud égal à l’émetteur, et un exp court.',
  },
  'invalid-logout-request': {
    title: 'Ce lien de déconnexion n’est pas valide',
    summary:
      'La demande de déconnexion nomme une post_logout_redirect_uri qui n’est pas enregistrée pour l’application, ne nomme aucune de ses applications, ou porte un id_token_hint que ce serveur n’a pas délivré. Le serveur ne peut pas savoir où il serait sûr de vous renvoyer, il s’arrête donc ici au lieu de rediriger (OpenID Connect RP-Initiated Logout 1.0 §3).',
    action:
      'Vous pouvez vous déconnecter sur la page de déconnexion simple. Le développeur doit envoyer un id_token_hint ou un client_id, et exactement l’une des URI de redirection après déconnexion enregistrées pour le client (gatehouse clients add --post-logout-redirect-uri), caractère pour caractère.',
  },
  'passkey-enrolment-failed': {
    title: 'La clé d’accès n’a pas été ajoutée',
    summary:
      'La nouvelle clé d’accès n’a pas pu être vérifiée : la page du compte avait expiré ou avait déjà servi (chaque page demande une fois, pendant 5 minutes), le navigateur a indiqué un autre site, l’authentificateur n’a fait aucune vérification de l’utilisateur, ou la clé d’accès est déjà enregistrée. Rien n’a été enregistré.',
    action: 'Rechargez la page du compte et ajoutez de nouveau la clé d’accès.',
  },
  'malformed-request': {
    title: 'Requête mal formée',
    summary:
      'La requête n’est pas du HTTP/1.1 valide : une méthode inconnue, une requête CONNECT (le serveur n’est pas un proxy), une ligne de requête sans HTTP/1.1 (HTTP/0.9), une ligne de requête ou un champ d’en-tête mal formé, un corps plus court que son Content-Length, ou un chemin d’URL qui n’est pas de l’UTF-8 valide encodé en pourcentage.',
    action:
      'Envoyez une requête HTTP/1.1 bien formée avec le chemin encodé en pourcentage en UTF-8 ; renvoyer les mêmes octets échoue de nouveau.',
  },
  'request-header-too-large': {
    title: 'Champs d’en-tête de la requête trop grands',
    summary:
      'La ligne de requête et les champs d’en-tête ensemble sont plus grands que ce que le serveur accepte (16 Kio, sauf si l’opérateur a défini MAX_HEADER_BYTES), par exemple une URL d’autorisation avec un state très long.',
    action: 'Raccourcissez l’URL et les champs d’en-tête ; envoyez les grandes valeurs dans un corps de requête.',
  },
  'request-timeout': {
    title: 'Délai de requête dépassé',
    summary:
      'La requête n’est pas arrivée à temps : ses en-têtes en 10 secondes, ou la requête entière en 30 secondes (sauf si l’opérateur a défini HEADERS_TIMEOUT_MS ou REQUEST_TIMEOUT_MS). Rien n’a été fait.',
    action: 'Renvoyez la requête, sans faire de pause au milieu.',
  },
  'organization-sign-in-method': {
    title: 'Votre organisation demande une autre façon de vous connecter',
    summary:
      'Vous vous êtes connecté d’une façon que l’organisation demandée par l’application n’autorise pas (ses méthodes de connexion : un mot de passe, une clé d’accès ou le fournisseur d’identité de l’organisation). Rien n’a été accordé.',
    action:
      'Déconnectez-vous, puis reconnectez-vous de l’une des façons nommées dans les détails (par exemple avec votre clé d’accès ou par le fournisseur d’identité de votre entreprise), ou demandez à un administrateur de l’organisation.',
  },
  'invitation-link-invalid': {
    title: 'Cette invitation ne fonctionne plus',
    summary:
      'Le lien d’invitation a déjà été utilisé, est plus ancien que ce que l’opérateur autorise (7 jours sauf indication contraire), a été révoqué, concerne une adresse qu’un compte a prise depuis ou un compte dont l’adresse a changé ou qui a été désactivé, appartient à un autre compte, ou ne vient pas de ce serveur. Chaque invitation fonctionne une fois. Rien n’a été modifié.',
    action:
      'Demandez une nouvelle invitation à la personne qui vous a invité. Si vous l’avez déjà acceptée, connectez-vous comme d’habitude.',
  },
  'sign-up-needs-invitation': {
    title: 'Les comptes sont créés sur invitation uniquement',
    summary:
      'Ce serveur ne crée de comptes que pour les personnes invitées par son opérateur (SIGN_UP=invite) : le formulaire d’inscription a été ouvert sans invitation. Aucun compte n’a été créé.',
    action:
      'Ouvrez l’e-mail d’invitation reçu et suivez son lien, ou demandez une invitation à l’opérateur. Si vous avez déjà un compte, connectez-vous.',
  },
  'sign-up-address-not-accepted': {
    title: 'Cette adresse e-mail ne peut pas servir à s’inscrire',
    summary:
      'L’adresse e-mail de l’inscription n’est pas une adresse (un @, un domaine avec un point, sans espaces, guillemets, chevrons, virgules ni caractères de contrôle, 254 caractères au plus, RFC 5321 §4.5.3.1.3), ou son domaine n’est pas l’un de ceux que l’opérateur autorise (SIGN_UP_DOMAINS). Aucun compte n’a été créé et aucun e-mail n’a été envoyé.',
    action:
      'Saisissez votre adresse telle que vous y recevez vos e-mails ; si la page indique les domaines autorisés, utilisez une adresse de l’un d’eux.',
  },
  'sign-up-name-not-accepted': {
    title: 'Ce nom ne peut pas être utilisé',
    summary:
      'Le nom de l’inscription est vide, dépasse 128 caractères ou contient un saut de ligne ou un autre caractère de contrôle. Aucun compte n’a été créé et aucun e-mail n’a été envoyé.',
    action: 'Saisissez sur une seule ligne le nom que les applications doivent afficher.',
  },
  'too-many-sign-ups': {
    title: 'Trop d’inscriptions',
    summary:
      'Des comptes ont été demandés trop souvent : depuis cette adresse réseau (10 par heure par défaut) ou avec des adresses de ce domaine e-mail (50 par heure). Aucun compte n’a été créé et aucun e-mail n’a été envoyé pour cette demande. Les opérateurs règlent ces limites avec RATE_LIMIT_SIGN_UP_ADDRESS et RATE_LIMIT_SIGN_UP_DOMAIN.',
    action: 'Attendez le délai indiqué par l’en-tête Retry-After (affiché sur la page), puis inscrivez-vous à nouveau.',
  },
  'account-deletion-not-confirmed': {
    title: 'Saisissez votre nom d’utilisateur pour supprimer le compte',
    summary:
      'La suppression d’un compte demande son nom d’utilisateur, saisi en confirmation, et une connexion datant de moins de 10 minutes : ce qui a été saisi n’est pas le nom d’utilisateur du compte connecté. Rien n’a été supprimé.',
    action:
      'Saisissez votre nom d’utilisateur exactement comme la page l’affiche, puis supprimez à nouveau ; ou quittez la page pour garder le compte.',
  },
  'email-change-address-not-accepted': {
    title: 'Cette adresse e-mail ne peut pas être utilisée',
    summary:
      'La nouvelle adresse saisie sur la page du compte n’est pas une adresse (un @, un domaine avec un point, sans espaces, guillemets, chevrons, virgules, sauts de ligne ni autres caractères de contrôle, 254 caractères au plus, RFC 5321 §4.5.3.1.3). L’adresse du compte n’a pas changé et aucun e-mail n’a été envoyé.',
    action: 'Revenez à la page du compte et saisissez la nouvelle adresse telle que vous y recevez vos e-mails.',
  },
};
