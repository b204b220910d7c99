import type { Catalog } from './catalog.js';

/** German, formal address (Sie), as identity products phrase their sign-in pages (catalog.ts). */
export const de: Catalog = {
  messages: {
    'layout.title': '{page} · {product}',
    'layout.product-title': '{product}',
    'layout.footer': 'Geschützt durch {product} · OAuth-2.0-Autorisierungsserver',
    'layout.languages': 'Sprache',
    'error.details': 'Details, wie an die Anwendung gesendet',
    'error.what-to-do': 'Was ist zu tun?',
    'error.try-again': 'Erneut versuchen',
    'error.fine-print': 'Fehler <code>{error}</code> · HTTP {status} · <link>Über diesen Fehler</link>',
    'error.not-found.title': 'Seite nicht gefunden',
    'error.not-found.detail': 'Unter {path} gibt es keine Seite.',
    'error.not-found.action':
      'Prüfen Sie die Adresse oder gehen Sie zur <link>Startseite</link>, um zu sehen, was dieser Server anbietet.',
    'form-post.title': 'Zurück zur Anwendung',
    'form-post.no-script': 'Ihr Browser führt hier kein Skript aus. Bitte fahren Sie von Hand fort.',
    'form-post.continue': 'Weiter',
    'client.claim': 'Nennt sich „{name}“, ein von niemandem geprüfter Name',
    'client.links': 'Über die Anwendung',
    'client.link.home': 'Website',
    'client.link.policy': 'Datenschutzerklärung',
    'client.link.terms': 'Nutzungsbedingungen',
    'client.any': 'die Anwendung',
    'common.signed-in-as': 'Angemeldet als <b>{username}</b>',
    'sign-in.title': 'Anmelden',
    'sign-in.lead.account': 'bei Ihrem Konto',
    'sign-in.lead.client': 'um mit <app>{client}</app> fortzufahren',
    'sign-in.username': 'Benutzername',
    'sign-in.password': 'Passwort',
    'sign-in.submit': 'Anmelden',
    'sign-in.next.consent': 'Anschließend legen Sie fest, was {client} mit Ihrem Konto tun darf.',
    'sign-in.next.account': 'Sie sehen dann, welche Anwendungen Ihr Konto nutzen können und wie Sie sich anmelden.',
    'sign-in.upstreams.title': 'Oder mit Ihrer Organisation anmelden',
    'sign-in.upstreams.email': 'Geschäftliche E-Mail-Adresse',
    'sign-in.upstreams.continue': 'Weiter',
    'sign-in.upstreams.provider': 'Mit {provider} anmelden',
    'sign-in.alert.check': 'Bitte prüfen Sie Ihre Eingaben und versuchen Sie es erneut.',
    'sign-in.alert.passkey': 'Versuchen Sie es erneut oder verwenden Sie Ihr Passwort.',
    'sign-in.alert.wait-seconds': 'Versuchen Sie es in {seconds, plural, one {# Sekunde} other {# Sekunden}} erneut.',
    'sign-in.alert.wait-minutes': 'Versuchen Sie es in {minutes, plural, one {# Minute} other {# Minuten}} erneut.',
    'passkey.or': 'oder',
    'passkey.sign-in': 'Mit einem Passkey anmelden',
    'passkey.confirm': 'Mit einem Passkey bestätigen',
    'passkey.use': 'Passkey verwenden',
    'passkey.checking': 'Ihr Passkey wird geprüft …',
    'passkey.not-used': 'Es wurde kein Passkey verwendet. Versuchen Sie es erneut oder verwenden Sie Ihr Passwort.',
    'passkey.failed': 'Der Passkey hat hier nicht funktioniert. Laden Sie die Seite neu und versuchen Sie es erneut.',
    'passkeys.title': 'Passkeys',
    'passkeys.none':
      'Noch kein Passkey. Mit einem Passkey melden Sie sich ohne Passwort an – per Fingerabdruck, Gesichtserkennung, Bildschirmsperre oder Sicherheitsschlüssel.',
    'passkeys.added': 'Hinzugefügt am {added}',
    'passkeys.not-used': 'Noch nicht verwendet',
    'passkeys.last-used': 'Zuletzt verwendet {when}',
    'passkeys.synced': 'Synchronisiert',
    'passkeys.rename-label': 'Neuer Name für {name}',
    'passkeys.rename': 'Umbenennen',
    'passkeys.remove': 'Passkey entfernen',
    'passkeys.name-label': 'Name des neuen Passkeys (optional)',
    'passkeys.name-placeholder': 'Arbeitslaptop',
    'passkeys.add': 'Passkey hinzufügen',
    'factor.title': 'Bestätigung in zwei Schritten',
    'factor.other-ways': 'Andere Bestätigungsmethoden',
    'factor.verify': 'Bestätigen',
    'factor.label.otp': 'Code aus Ihrer Authenticator-App',
    'factor.label.recovery-code': 'Wiederherstellungscode',
    'factor.label.passkey': 'Ein Passkey',
    'factor.alert.replayed': 'Dieser Code wurde bereits verwendet. Warten Sie auf den nächsten.',
    'factor.alert.wrong-recovery-code': 'Dieser Wiederherstellungscode ist falsch oder wurde bereits verwendet.',
    'factor.alert.enrolment-refused': 'Beginnen Sie erneut in der Anwendung.',
    'factor.alert.check': 'Prüfen Sie den Code und versuchen Sie es erneut.',
    'enrol.title': 'Bestätigung in zwei Schritten einrichten',
    'enrol.reason':
      'Um mit <app>{client}</app> fortzufahren, braucht Ihre Anmeldung einen zweiten Schritt: nach dem Passwort einen Code aus einer App auf Ihrem Telefon.',
    'enrol.scan':
      'Scannen Sie diesen Code mit einer Authenticator-App (etwa Google Authenticator, 1Password oder Aegis) und geben Sie dann den sechsstelligen Code ein, den sie anzeigt.',
    'enrol.qr': 'QR-Code für Ihre Authenticator-App',
    'enrol.cannot-scan': 'Scannen nicht möglich? Geben Sie diesen Schlüssel in der App ein:',
    'enrol.code': 'Code aus der App',
    'enrol.submit': 'Bestätigung in zwei Schritten aktivieren',
    'enrol.not-now': 'Nicht jetzt: zurück zu Ihrem Konto',
    'recovery.title': 'Ihre Wiederherstellungscodes',
    'recovery.heading': 'Speichern Sie Ihre Wiederherstellungscodes',
    'recovery.lead':
      'Jeder Code meldet Sie einmal an, falls Sie Ihre Authenticator-App verlieren. Bewahren Sie die Codes sicher auf: Sie werden nur dieses eine Mal angezeigt.',
    'recovery.continue': 'Gespeichert, weiter',
    'consent.title': '{client} zulassen?',
    'consent.heading': '<app>{client}</app> möchte auf Ihr Konto zugreifen',
    'consent.document-note':
      '<b>Kein Administrator hat diese Anwendung hinzugefügt.</b> Sie beschreibt sich selbst über <site>{host}</site> – das Einzige, was {product} prüfen konnte. Lassen Sie sie nur zu, wenn Sie dieser Website vertrauen.',
    'consent.self-registered':
      '<b>Diese Anwendung hat sich selbst registriert.</b> Kein Administrator hat sie hinzugefügt, ihr Name wurde also nicht geprüft: Lassen Sie sie nur zu, wenn Sie sie selbst gestartet haben.',
    'consent.no-access':
      '{client} möchte nur wissen, dass Sie angemeldet sind, und erhält keinen Zugriff auf Ihre Daten.',
    'consent.will-allow': 'Damit erlauben Sie {client}:',
    'consent.deny': 'Ablehnen',
    'consent.allow': 'Zulassen',
    'consent.organization': 'Für die Organisation {organization}',
    'organizations.choose.title': 'Organisation auswählen',
    'organizations.choose.lead': 'Für welche Organisation melden Sie sich bei {client} an?',
    'consent.fine-print':
      'In beiden Fällen werden Sie zu <b>{destination}</b> zurückgeleitet. Den Zugriff können Sie später auf Ihrer <account>Kontoseite</account> widerrufen.',
    'scope.openid': 'Sie mit Ihrem Konto anmelden',
    'scope.profile': 'Ihren Namen, Benutzernamen und Ihre Sprache sehen',
    'scope.email': 'Ihre E-Mail-Adresse sehen und ob sie bestätigt ist',
    'scope.offline-access': 'Zugriff behalten, während Sie abwesend sind',
    'scope.read': 'Ihre {things} sehen',
    'scope.write': 'Ihre {things} anlegen, ändern und löschen',
    'device.title': 'Gerät verbinden',
    'device.lead': 'Geben Sie den Code ein, den Ihr Gerät anzeigt.',
    'device.code': 'Code',
    'device.code-placeholder': 'XXXX-XXXX',
    'device.continue': 'Weiter',
    'device.fine-print': 'Geben Sie nur Codes von Geräten ein, die Sie selbst einrichten.',
    'device.check-code': 'Prüfen Sie, ob Ihr Gerät <usercode>{userCode}</usercode> anzeigt',
    'device.consent-fine-print':
      'Wenn die Codes nicht übereinstimmen oder Sie dies nicht auf einem Gerät gestartet haben, wählen Sie „Ablehnen“. Den Zugriff können Sie später auf Ihrer <account>Kontoseite</account> widerrufen.',
    'device.connected.title': 'Gerät verbunden',
    'device.connected.text': '{client} hat jetzt Zugriff. Kehren Sie zu Ihrem Gerät zurück: Es fährt von selbst fort.',
    'device.denied.title': 'Zugriff abgelehnt',
    'device.denied.text': '{client} hat keinen Zugriff erhalten. Sie können diese Seite schließen.',
    'device.alert.check': 'Prüfen Sie den Code auf Ihrem Gerät und geben Sie ihn erneut ein.',
    'logout.title': 'Abmelden',
    'logout.heading': 'Von {product} abmelden?',
    'logout.not-signed-in': 'Sie sind nicht angemeldet.',
    'logout.asked-by': '<app>{client}</app> hat Ihre Abmeldung angefordert.',
    'logout.lead': 'Wenn eine Anwendung Sie das nächste Mal hierher schickt, melden Sie sich erneut an.',
    'logout.submit': 'Abmelden',
    'logout.account': 'Ihr Konto',
    'signed-out.title': 'Abgemeldet',
    'signed-out.heading': 'Sie sind abgemeldet',
    'signed-out.lead':
      'Sie können dieses Fenster schließen. Ihre Anwendungen werden Sie bitten, sich erneut anzumelden.',
    'account.title': 'Ihr Konto',
    'account.apps.none': 'Keine Anwendung hat Zugriff auf Ihr Konto.',
    'account.apps.title': 'Anwendungen mit Zugriff auf Ihr Konto',
    'account.apps.dates': 'Zugelassen seit {since} · Zuletzt verwendet {used}',
    'account.apps.remove': 'Zugriff entfernen',
    'account.fine-print':
      'Wenn Sie den Zugriff entfernen, wird die Anwendung sofort abgemeldet: Ihre Tokens funktionieren nicht mehr.',
    'account.sign-out': 'Abmelden',
    'account.linked.title': 'Identitätsanbieter, mit denen Sie sich anmelden',
    'account.linked.since': 'Verknüpft seit {since}',
    'account.linked.unlink': 'Verknüpfung aufheben',
    'account.notice.access-removed': 'Zugriff entfernt: Die Anwendung kann Ihr Konto nicht mehr verwenden.',
    'account.notice.access-removed-named':
      'Zugriff entfernt: {client} kann Ihr Konto nicht mehr verwenden. Ihre Tokens funktionieren nicht mehr.',
    'account.notice.two-step-on':
      'Die Bestätigung in zwei Schritten ist aktiviert. Bewahren Sie Ihre Wiederherstellungscodes sicher auf.',
    'account.notice.two-step-off':
      'Die Authenticator-App ist deaktiviert, und ihre Wiederherstellungscodes funktionieren nicht mehr.',
    'account.notice.recovery-codes': 'Sie haben neue Wiederherstellungscodes. Die alten funktionieren nicht mehr.',
    'account.notice.passkey-added': 'Passkey hinzugefügt. Damit melden Sie sich ohne Passwort an.',
    'account.notice.passkey-renamed': 'Passkey umbenannt.',
    'account.notice.passkey-removed': 'Passkey entfernt. Er meldet Sie nicht mehr an.',
    'account.notice.language': 'Ihre Sprache wurde gespeichert.',
    'account.language.title': 'Sprache',
    'account.language.label': 'Sprache dieser Seiten und der Anwendungen, die danach fragen',
    'account.language.automatic': 'Wie von meinem Browser gewünscht',
    'account.language.save': 'Sprache speichern',
    'security.title': 'So melden Sie sich an',
    'security.on-app':
      'Die Bestätigung in zwei Schritten ist <b>aktiviert</b>: Codes aus Ihrer Authenticator-App, seit {since}. {codes, plural, one {# Wiederherstellungscode übrig.} other {# Wiederherstellungscodes übrig.}}',
    'security.on-app-passkeys':
      'Die Bestätigung in zwei Schritten ist <b>aktiviert</b>: Codes aus Ihrer Authenticator-App, seit {since}, und {passkeys, plural, one {# Passkey} other {# Passkeys}}. {codes, plural, one {# Wiederherstellungscode übrig.} other {# Wiederherstellungscodes übrig.}}',
    'security.on-passkeys':
      'Die Bestätigung in zwei Schritten ist <b>aktiviert</b>: {passkeys, plural, one {# Passkey} other {# Passkeys}}.',
    'security.off': 'Die Bestätigung in zwei Schritten ist <b>deaktiviert</b>.',
    'security.confirm':
      '<b>Bestätigen Sie Ihre Identität, um Änderungen vorzunehmen.</b> Zum Einrichten oder Deaktivieren der Bestätigung in zwei Schritten und zum Hinzufügen, Umbenennen oder Entfernen eines Passkeys ist eine Anmeldung innerhalb der letzten {minutes, plural, one {# Minute} other {# Minuten}} nötig.',
    'security.confirm-submit': 'Identität bestätigen',
    'security.add-app': 'Authenticator-App hinzufügen',
    'security.set-up': 'Bestätigung in zwei Schritten einrichten',
    'security.new-codes': 'Neue Wiederherstellungscodes',
    'security.turn-off': 'Deaktivieren',
    'link.title': 'Konto verknüpfen',
    'link.lead':
      'Ein Konto hier verwendet bereits die E-Mail-Adresse, die <b>{provider}</b> übermittelt hat. Wenn es Ihres ist, geben Sie sein Passwort ein, um sich künftig mit <b>{provider}</b> anzumelden.',
    'link.lead-passkey':
      'Ein Konto hier verwendet bereits die E-Mail-Adresse, die <b>{provider}</b> übermittelt hat. Wenn es Ihres ist, geben Sie sein Passwort ein oder verwenden Sie einen seiner Passkeys, um sich künftig mit <b>{provider}</b> anzumelden.',
    'link.password': 'Passwort dieses Kontos',
    'link.submit': 'Verknüpfen und fortfahren',
    'link.passkey': 'Einen Passkey dieses Kontos verwenden',
    'link.fine-print':
      'Nicht Ihr Konto? Schließen Sie dieses Fenster: Ohne das Passwort oder einen Passkey des Kontos wird nichts verknüpft.',
    'link.alert.wrong-password': 'Falsches Passwort',
    'link.alert.check': 'Es wurde nichts verknüpft. Prüfen Sie das Passwort und versuchen Sie es erneut.',
    'link.alert.passkey': 'Es wurde nichts verknüpft. Versuchen Sie den Passkey erneut oder das Passwort.',
    'continue.title': 'Angemeldet',
    'continue.lead': 'Sie werden zur Anwendung zurückgeleitet …',
    'continue.button': 'Weiter',
    'landing.lead':
      'Der OAuth-2.0-Autorisierungsserver und OpenID Provider unter <b>{issuer}</b>. Anwendungen leiten Sie hierher, damit Sie sich anmelden und den Zugriff auf Ihr Konto erlauben.',
    'landing.account': 'Ihr Konto',
    'landing.account.what': 'die zugelassenen Anwendungen und die Abmeldung',
    'landing.openid': 'OpenID-Provider-Konfiguration',
    'landing.openid.what': 'OpenID Connect Discovery 1.0',
    'landing.metadata': 'Metadaten des Autorisierungsservers',
    'landing.metadata.what': 'RFC 8414: Endpunkte, Grants, Scopes',
    'landing.jwks': 'Signaturschlüssel',
    'landing.jwks.what': 'die öffentlichen Schlüssel seiner Tokens (JWKS)',
    'landing.api': 'REST-API',
    'landing.api.what': 'das OpenAPI-Dokument von {prefix}',
    'landing.fine-print':
      'Für Entwickler: Beginnen Sie mit den Metadaten; jeder Fehler verweist auf eine Seite, die ihn erklärt.',
    'problems.status': 'HTTP {status}',
    'problems.transient': 'vorübergehend: dieselbe Anfrage kann später gelingen',
    'problems.permanent': 'dauerhaft: eine Wiederholung schlägt erneut fehl',
    'problems.wire-title': 'Sein <code>title</code> in einer Antwort: <wire>{title}</wire>',
    'problems.client-action': 'Was der Client tun muss',
    'problems.reasons': 'Die <code>error_description</code> für jeden Grund',
    'problems.every-error': 'Alle Fehler',
    'problems.home': 'Startseite',
    'problems.index.title': 'Fehler',
    'problems.index.lead':
      'Jeder Fehler, den dieser Server beantwortet, mit dem, was der Client tun muss. Ein OAuth-Fehler nennt seine Seite in <code>error_uri</code>, ein Problem (RFC 9457) in <code>type</code>.',
    'problems.index.oauth': 'OAuth-2.0-Fehler mit ihren Gründen',
    'problems.index.problems': 'Probleme (<code>application/problem+json</code>)',
    'demo.served': 'Angezeigt, weil der Server mit <code>--demo</code> läuft.',
    'demo.no-code.title': 'Kein Code',
    'demo.no-code.heading': 'Kein Autorisierungscode',
    'demo.no-code.summary': 'Die Autorisierungsanfrage kam ohne einen Code zurück, den diese Seite verwenden kann.',
    'demo.no-code.again': 'Beginnen Sie erneut mit der Autorisierungs-URL, die <code>npm start</code> ausgegeben hat.',
    'demo.code.title': 'Autorisierungscode',
    'demo.code.heading': 'Autorisierungscode erhalten',
    'demo.code.lead': 'Der Autorisierungsserver hat den Browser hierher zurückgeschickt, an die Redirect-URI der Demo.',
    'demo.code.exchange': 'Tauschen Sie ihn innerhalb von {seconds, plural, one {# Sekunde} other {# Sekunden}} ein',
    'demo.code.verifier':
      'Setzen Sie den <code>code_verifier</code> Ihrer Autorisierungsanfrage ein (den, der neben der geöffneten URL ausgegeben wurde).',
    'demo.code.once': 'Der Code funktioniert nur einmal.',
    'demo.refused.title': 'Eintausch abgelehnt',
    'demo.refused.heading': 'Der Eintausch des Codes wurde abgelehnt',
    'demo.refused.summary':
      'Diese Seite hat den Code für den öffentlichen Client der Demo an /token gesendet. Die Antwort:',
    'demo.refused.again': 'Beginnen Sie erneut mit der OpenID-Connect-URL, die <code>npm start</code> ausgegeben hat.',
    'demo.signed-in.title': 'Angemeldet',
    'demo.signed-in.heading': 'Mit OpenID Connect angemeldet',
    'demo.signed-in.lead':
      'Diese Seite hat den Code bei /token als öffentlicher Client der Demo eingetauscht und ein ID-Token für den Scope <code>{scope}</code> erhalten. Seine Claims:',
    'demo.signed-in.nonce-ok': 'Die Nonce ist die der ausgegebenen Anfrage.',
    'demo.signed-in.nonce-wrong': 'Die Nonce ist NICHT die der ausgegebenen Anfrage.',
    'demo.signed-in.check':
      'Ein Client prüft die Signatur des Tokens mit den Schlüsseln unter <link>/jwks</link> sowie seine Claims (OIDC Core §3.1.3.7); diese Seite zeigt sie nur an.',
    'demo.signed-in.userinfo': '/userinfo mit dem Access Token abfragen',
    'sign-in.forgot-password': 'Passwort vergessen?',
    'reset.title': 'Passwort zurücksetzen',
    'reset.lead':
      'Geben Sie den Benutzernamen oder die E-Mail-Adresse Ihres Kontos ein. Wir senden einen Link zum Festlegen eines neuen Passworts an die E-Mail-Adresse des Kontos.',
    'reset.identifier': 'Benutzername oder E-Mail-Adresse',
    'reset.submit': 'Link senden',
    'reset.back': 'Zurück zur Anmeldung',
    'reset.sent.title': 'Prüfen Sie Ihre E-Mails',
    'reset.sent.lead':
      'Wenn ein Konto zu Ihrer Eingabe passt und eine E-Mail-Adresse hat, ist ein Link zum Festlegen eines neuen Passworts dorthin unterwegs. Er funktioniert einmal, innerhalb von {minutes, plural, one {# Minute} other {# Minuten}}.',
    'reset.sent.spam':
      'Nach ein paar Minuten nichts angekommen? Sehen Sie im Spam-Ordner nach, prüfen Sie Ihre Eingabe oder fragen Sie Ihre Administration.',
    'reset.new.title': 'Neues Passwort festlegen',
    'reset.new.lead': 'Für das Konto {username}.',
    'reset.new.password': 'Neues Passwort',
    'reset.new.hint':
      'Mindestens {min} Zeichen. Einige zusammenhanglose Wörter ergeben ein starkes Passwort, das man sich leicht merkt.',
    'reset.new.code-why': 'Ihr Konto nutzt die Bestätigung in zwei Schritten: Bestätigen Sie, dass Sie es sind.',
    'reset.new.code': 'Code aus Ihrer Authenticator-App oder ein Wiederherstellungscode',
    'reset.new.submit': 'Neues Passwort festlegen',
    'reset.done.title': 'Passwort geändert',
    'reset.done.lead':
      'Ihr neues Passwort ist festgelegt, und Sie sind überall abgemeldet. Melden Sie sich damit erneut an.',
    'reset.done.grants':
      'Anwendungen mit Zugriff auf Ihr Konto haben ihn verloren: Erlauben Sie ihn erneut, wenn sie danach fragen.',
    'reset.done.sign-in': 'Anmelden',
    'reset.alert.too-short': 'Verwenden Sie mindestens 8 Zeichen.',
    'reset.alert.too-long': 'Verwenden Sie höchstens 1024 Zeichen.',
    'reset.alert.too-common':
      'Dieses Passwort ist verbreitet, wurde geleakt oder lässt sich aus Ihrem Konto leicht erraten. Versuchen Sie einige zusammenhanglose Wörter.',
    'mail.footer': 'Gesendet von {product} unter {issuer}.',
    'mail.reset.subject': 'Passwort zurücksetzen',
    'mail.reset.lead':
      'Jemand, vermutlich Sie, hat das Zurücksetzen des Passworts Ihres Kontos {username} angefordert. Öffnen Sie diesen Link innerhalb von {minutes, plural, one {# Minute} other {# Minuten}}, um ein neues Passwort festzulegen. Er funktioniert einmal.',
    'mail.reset.action': 'Neues Passwort festlegen',
    'mail.reset.ignore':
      'Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.',
    'account.email.title': 'E-Mail-Adresse',
    'account.email.verified': '{email} · bestätigt',
    'account.email.unverified':
      '{email} · noch nicht bestätigt. Bestätigen Sie sie, damit Anwendungen sich darauf verlassen können.',
    'account.email.send': 'Bestätigungs-E-Mail senden',
    'account.email.enter-code': 'Code aus der E-Mail eingeben',
    'account.notice.verification-sent':
      'Eine Bestätigungs-E-Mail ist unterwegs. Ihr Link und ihr Code funktionieren 24 Stunden lang.',
    'account.notice.verification-wait':
      'Es wurden zu viele Bestätigungs-E-Mails angefordert. Öffnen Sie die neueste oder versuchen Sie es später erneut.',
    'account.notice.email-verified': 'Ihre E-Mail-Adresse ist bestätigt.',
    'verify.title': 'E-Mail-Adresse bestätigen',
    'verify.lead': 'Bestätigen Sie, dass {email} die Adresse des Kontos {username} ist.',
    'verify.submit': 'Meine Adresse bestätigen',
    'verify.code.title': 'Bestätigungscode eingeben',
    'verify.code.lead': 'Geben Sie den sechsstelligen Code aus der neuesten E-Mail an {email} ein.',
    'verify.code.label': 'Bestätigungscode',
    'verify.code.submit': 'Bestätigen',
    'verify.code.check': 'Prüfen Sie den Code in der neuesten E-Mail und versuchen Sie es erneut.',
    'verify.back': 'Zurück zu Ihrem Konto',
    'verify.done.title': 'Adresse bestätigt',
    'verify.done.lead':
      '{email} ist bestätigt. Anwendungen, denen Sie Zugriff erlauben, können sich jetzt darauf verlassen.',
    'mail.verify.subject': 'Bestätigen Sie Ihre E-Mail-Adresse',
    'mail.verify.lead': 'Bestätigen Sie, dass dies die E-Mail-Adresse Ihres Kontos {username} ist.',
    'mail.verify.action': 'Meine Adresse bestätigen',
    'mail.verify.code':
      'Oder geben Sie diesen Code dort ein, wo die Seite danach fragt: {code}. Link und Code funktionieren einmal, {hours} Stunden lang.',
    'mail.verify.ignore': 'Wenn Sie dieses Konto nicht kennen, ignorieren Sie diese E-Mail.',
    'invite.title': 'Einladung annehmen',
    'invite.lead':
      'Sie sind zu {where} eingeladen, mit der Adresse {email}. Wählen Sie einen Benutzernamen und ein Passwort für Ihr Konto.',
    'invite.username': 'Benutzername',
    'invite.username-hint':
      'Bis zu 64 Zeichen: Buchstaben a–z, Ziffern und . _ @ -, beginnend mit einem Buchstaben oder einer Ziffer.',
    'invite.password': 'Passwort',
    'invite.submit': 'Mein Konto anlegen',
    'invite.alert.username-taken': 'Dieser Benutzername ist vergeben: Wählen Sie einen anderen.',
    'invite.done.title': 'Ihr Konto ist bereit',
    'invite.done.lead':
      'Das Konto {username} ist angelegt und Ihre Adresse bestätigt. Melden Sie sich mit Ihrem neuen Passwort an.',
    'invite.member.lead': 'Sie sind zu {where} eingeladen, mit Ihrem Konto {username}.',
    'invite.member.sign-in-first':
      'Melden Sie sich zuerst als {username} an und öffnen Sie dann den Link in der E-Mail erneut.',
    'invite.member.accept': 'Einladung annehmen',
    'invite.joined.title': 'Einladung angenommen',
    'invite.joined.lead': 'Sie sind jetzt Mitglied von {where}.',
    'mail.invitation.subject': 'Sie sind eingeladen',
    'mail.invitation.lead':
      'Sie sind zu {where} eingeladen. Wählen Sie einen Benutzernamen und ein Passwort für Ihr Konto; dieser Link funktioniert {days, plural, one {# Tag} other {# Tage}} lang.',
    'mail.invitation.action': 'Einladung annehmen',
    'mail.invitation.existing-lead':
      'Sie sind mit Ihrem Konto {username} zu {where} eingeladen. Melden Sie sich an und nehmen Sie innerhalb von {days, plural, one {# Tag} other {# Tagen}} an.',
    'mail.invitation.existing-action': 'Anmelden und annehmen',
    'mail.invitation.ignore':
      'Wenn Sie das nicht erwartet haben, ignorieren Sie diese E-Mail: Ohne Sie geschieht nichts.',
    'account.data.title': 'Ihre Daten',
    'account.data.lead':
      'Alles, was dieser Server über Sie speichert, als JSON-Datei: Ihre Angaben, wie Sie sich anmelden (ohne Geheimnisse), die erlaubten Anwendungen, Ihre Sitzungen, Mitgliedschaften und die Audit-Ereignisse zu Ihnen.',
    'account.data.download': 'Meine Daten herunterladen',
    'account.delete.title': 'Mein Konto löschen',
    'account.delete.lead':
      'Damit wird Ihr Konto endgültig gelöscht: Alle Anwendungen verlieren den Zugriff, Passwort, Passkeys, zweite Faktoren und Sitzungen werden entfernt. Das Audit-Protokoll behält seine Einträge ohne Ihre personenbezogenen Daten.',
    'account.delete.confirm': 'Geben Sie zur Bestätigung Ihren Benutzernamen {username} ein',
    'account.delete.submit': 'Mein Konto endgültig löschen',
    'account.delete.fresh':
      'Zum Löschen des Kontos ist eine Anmeldung innerhalb der letzten 10 Minuten nötig: Bestätigen Sie zuerst oben, dass Sie es sind.',
    'account.deleted.title': 'Konto gelöscht',
    'account.deleted.lead': 'Ihr Konto und alles, was dazugehörte, sind gelöscht, und Sie sind überall abgemeldet.',
    'sign-in.sign-up': 'Konto erstellen',
    'sign-up.title': 'Konto erstellen',
    'sign-up.lead':
      'Wir senden eine E-Mail an Ihre Adresse, um sie zu bestätigen; danach melden Sie sich mit ihr und Ihrem Passwort an.',
    'sign-up.domains': 'Nur Adressen bei {domains}.',
    'sign-up.email': 'E-Mail-Adresse',
    'sign-up.name': 'Name',
    'sign-up.submit': 'Konto erstellen',
    'sign-up.alert.address': 'Geben Sie die Adresse ein, unter der Sie E-Mails erhalten, etwa name@example.com.',
    'sign-up.alert.domain': 'Verwenden Sie eine Adresse bei {domains}.',
    'sign-up.alert.name': 'Geben Sie einen Namen mit höchstens 128 Zeichen in einer Zeile ein.',
    'sign-up.sent.lead':
      'Wenn noch kein Konto diese Adresse hat, ist eine E-Mail mit einem Bestätigungslink dorthin unterwegs: Öffnen Sie ihn innerhalb von {hours} Stunden, um abzuschließen. Hat die Adresse bereits ein Konto, wird stattdessen dessen Inhaber benachrichtigt.',
    'mail.sign-up-taken.subject': 'Jemand wollte sich mit Ihrer Adresse registrieren',
    'mail.sign-up-taken.lead':
      'Jemand wollte mit dieser E-Mail-Adresse ein Konto erstellen; sie gehört bereits zu Ihrem Konto {username}. Es wurde kein Konto erstellt.',
    'mail.sign-up-taken.action': 'Passwort zurücksetzen',
    'mail.sign-up-taken.ignore':
      'Wenn Sie es waren, melden Sie sich mit diesem Konto an oder wählen Sie über den Link oben ein neues Passwort. Wenn nicht, ignorieren Sie diese E-Mail: Es hat sich nichts geändert.',
  },
  problems: {
    'organization-not-member': {
      title: 'Sie sind kein Mitglied dieser Organisation',
      summary:
        'Die Anwendung wollte Sie für eine Organisation anmelden (ihr Parameter organization), die es auf diesem Server nicht gibt oder in der Ihr Konto kein Mitglied ist. Es wurde nichts gewährt.',
      action:
        'Kehren Sie zur Anwendung zurück und wählen Sie eine Ihrer Organisationen, oder bitten Sie eine Administratorin oder einen Administrator der Organisation, Sie hinzuzufügen.',
    },
    'organization-sign-in-method': {
      title: 'Ihre Organisation verlangt eine andere Anmeldung',
      summary:
        'Sie haben sich auf eine Weise angemeldet, die die Organisation, für die die Anwendung Sie anmelden wollte, nicht erlaubt (ihre Anmeldemethoden: ein Passwort, ein Passkey oder der Identitätsanbieter der Organisation). Es wurde nichts gewährt.',
      action:
        'Melden Sie sich ab und melden Sie sich erneut auf eine der Weisen an, die die Details nennen (zum Beispiel mit Ihrem Passkey oder über den Identitätsanbieter Ihres Unternehmens), oder wenden Sie sich an eine Administratorin oder einen Administrator der Organisation.',
    },
    'password-reset-link-invalid': {
      title: 'Dieser Link zum Zurücksetzen des Passworts funktioniert nicht mehr',
      summary:
        'Der Link zum Festlegen eines neuen Passworts wurde bereits verwendet, ist älter als 30 Minuten, wurde durch ein späteres Zurücksetzen desselben Kontos beendet oder stammt nicht von diesem Server. Jeder Link funktioniert einmal. Es wurde nichts geändert.',
      action:
        'Fordern Sie einen neuen Link an: Wählen Sie auf der Anmeldeseite „Passwort vergessen?“ und öffnen Sie die neueste E-Mail, die dann gesendet wird.',
    },
    'too-many-password-resets': {
      title: 'Zu viele Anfragen zum Zurücksetzen des Passworts',
      summary:
        'E-Mails zum Zurücksetzen des Passworts wurden zu oft angefordert: für diesen Benutzernamen oder diese E-Mail-Adresse (standardmäßig 5 pro Stunde) oder von dieser Netzwerkadresse (20 pro Stunde). Für diese Anfrage wurde keine E-Mail gesendet. Betreiber legen die Grenzen mit RATE_LIMIT_PASSWORD_RESET_ACCOUNT und RATE_LIMIT_PASSWORD_RESET_ADDRESS fest.',
      action:
        'Warten Sie die im Header Retry-After genannte Zeit ab (auf der Seite angezeigt) und fragen Sie dann erneut; öffnen Sie inzwischen die neueste bereits gesendete E-Mail.',
    },
    'password-not-accepted': {
      title: 'Wählen Sie ein anderes Passwort',
      summary:
        'Das neue Passwort wurde abgelehnt (NIST SP 800-63B §3.1.1.2): Es ist kürzer als 8 Zeichen, länger als 1024 oder eines der Passwörter, die verbreitet sind, bei Datenlecks veröffentlicht wurden oder sich daraus oder aus dem Konto selbst (Benutzername, E-Mail-Adresse, Name) leicht erraten lassen. Keine Regel verlangt Ziffern, Großbuchstaben oder Sonderzeichen. Es wurde nichts geändert.',
      action:
        'Wählen Sie ein längeres Passwort, das kein verbreitetes Wort und keine verbreitete Wendung ist, zum Beispiel mehrere zusammenhanglose Wörter; ein Passwort-Manager kann eines erzeugen.',
    },
    'login-failed': {
      title: 'Falscher Benutzername oder falsches Passwort',
      summary:
        'Benutzername und Passwort passen zu keinem Konto. Ein unbekannter Benutzername und ein falsches Passwort erhalten dieselbe Antwort.',
      action:
        'Prüfen Sie Benutzername und Passwort und versuchen Sie es erneut. Nach 10 Fehlversuchen innerhalb einer Stunde für einen Benutzernamen (oder 100 von einer Adresse) werden weitere Versuche eine Zeit lang abgelehnt.',
    },
    'too-many-login-attempts': {
      title: 'Zu viele Anmeldeversuche',
      summary:
        'Die Anmeldung wurde abgelehnt, bevor das Passwort geprüft wurde: zu viele Fehlversuche für diesen Benutzernamen oder von dieser Adresse (standardmäßig 10 pro Stunde je Benutzername und 100 pro Stunde je Adresse, danach einer alle 6 Minuten) oder zu viele Versuche jeder Art von dieser Adresse oder für diese Anwendung (60 bzw. 600 pro Minute). Betreiber legen die Grenzen mit RATE_LIMIT_LOGIN_* fest.',
      action:
        'Warten Sie die im Header Retry-After genannte Zeit ab (sie steht auf der Seite) und versuchen Sie es dann erneut.',
    },
    'passkey-sign-in-failed': {
      title: 'Dieser Passkey hat nicht funktioniert',
      summary:
        'Der vom Browser angebotene Passkey wurde nicht angenommen: Er ist hier nicht registriert (oder wurde entfernt), die Anmeldeseite war abgelaufen oder schon verwendet (jede Seite fragt einmal, 5 Minuten lang), der Browser meldete eine andere Website oder keine Benutzerbestätigung (PIN, Fingerabdruck oder Gesicht), oder der Signaturzähler des Authenticators ging zurück, ein Zeichen für einen kopierten Schlüssel. Jede Ablehnung wird im Audit-Protokoll festgehalten.',
      action:
        'Versuchen Sie es auf einer neu geladenen Anmeldeseite erneut oder melden Sie sich mit Ihrem Passwort an. Wurde der Passkey aus Ihrem Konto entfernt, fügen Sie ihn auf der Kontoseite erneut hinzu. Nach 10 Fehlversuchen innerhalb einer Stunde für ein Konto (oder 100 von einer Adresse) werden weitere Versuche eine Zeit lang abgelehnt.',
    },
    'second-factor-failed': {
      title: 'Dieser Code hat nicht funktioniert',
      summary:
        'Der zweite Schritt einer Anmeldung wurde abgelehnt: Der Code aus der Authenticator-App ist falsch, liegt mehr als 30 Sekunden neben der aktuellen Zeit oder wurde schon verwendet (jeder Code meldet einmal an, RFC 6238 §5.2); der Wiederherstellungscode ist falsch oder schon verwendet; oder beim Einrichten passt der Code nicht zum gerade gezeigten Schlüssel. Es wurde nichts gespeichert. Falsche Codes zählen wie falsche Passwörter: Nach 10 Fehlern innerhalb einer Stunde für einen Benutzer (oder 100 von einer Adresse) werden weitere Versuche eine Zeit lang abgelehnt.',
      action:
        'Geben Sie den Code ein, den die App jetzt zeigt (oder warten Sie auf den nächsten, wenn Sie ihn gerade verwendet haben), oder verwenden Sie einen Ihrer Wiederherstellungscodes. Haben Sie beides verloren, bitten Sie den Betreiber, Ihren zweiten Faktor zurückzusetzen (gatehouse users reset-factors).',
    },
    'user-code-invalid': {
      title: 'Dieser Code hat nicht funktioniert',
      summary:
        'Der auf der Geräteseite eingegebene Code gehört zu keinem wartenden Gerät: vertippt, abgelaufen (Codes gelten 10 Minuten) oder schon zugelassen oder abgelehnt. Groß- und Kleinschreibung und Bindestriche spielen keine Rolle. Jeder falsche Code wird gezählt und festgehalten (RFC 8628 §5.1).',
      action:
        'Prüfen Sie den auf dem Gerät angezeigten Code und geben Sie ihn erneut ein. Zeigt das Gerät keinen Code mehr an, starten Sie die Anmeldung auf dem Gerät neu, um einen neuen zu erhalten.',
    },
    'too-many-user-code-attempts': {
      title: 'Zu viele falsche Codes',
      summary:
        'Die Geräteseite hat den Code abgelehnt, bevor sie ihn geprüft hat: zu viele falsche Codes von dieser Adresse (standardmäßig 20 pro Stunde) oder zu viele Versuche jeder Art (60 pro Minute). So kann niemand die Codes fremder Geräte erraten (RFC 8628 §5.1). Betreiber legen die Grenzen mit RATE_LIMIT_USER_CODE_* fest.',
      action:
        'Warten Sie die im Header Retry-After genannte Zeit ab (sie steht auf der Seite) und versuchen Sie es dann erneut.',
    },
    'csrf-token-invalid': {
      title: 'Dieses Formular ist abgelaufen',
      summary:
        'Das Formular wurde ohne sein Sicherheitstoken, mit einem falschen oder nach dem Ende der Anmeldesitzung gesendet und stammt daher möglicherweise nicht von dieser Website. Es wurde nichts geändert und nichts gewährt.',
      action:
        'Kehren Sie zur Anwendung zurück und melden Sie sich erneut an. Wenn das wieder passiert, erlauben Sie Cookies für diese Website.',
    },
    'invalid-authorization-request': {
      title: 'Dieser Anmeldelink ist ungültig',
      summary:
        'Die Autorisierungsanfrage nennt keinen oder einen unbekannten Client oder eine redirect_uri, die fehlt oder für den Client nicht registriert ist. Der Server kann nicht wissen, wohin er Sie sicher zurückschicken könnte, und hält deshalb hier an, statt weiterzuleiten (RFC 6749 §4.1.2.1).',
      action:
        'Kehren Sie zur Anwendung zurück und informieren Sie ihre Entwickler. Diese müssen eine registrierte client_id und genau eine ihrer registrierten Redirect-URIs senden, Zeichen für Zeichen (gatehouse clients add --redirect-uri).',
    },
    'fresh-sign-in-required': {
      title: 'Melden Sie sich erneut an, um dies zu ändern',
      summary:
        'Jede Änderung an Ihrer Anmeldung (Bestätigung in zwei Schritten einrichten oder deaktivieren, neue Wiederherstellungscodes, einen Passkey hinzufügen, umbenennen oder entfernen, einen Identitätsanbieter trennen) braucht eine Anmeldung aus den letzten 10 Minuten, damit niemand, der einen angemeldeten Browser findet, einen Zugang hinzufügen oder entfernen kann. Es wurde nichts geändert.',
      action:
        'Wählen Sie auf der Kontoseite „Identität bestätigen“ (Ihr Passwort oder ein Passkey) und nehmen Sie dann die Änderung vor.',
    },
    'not-found': {
      title: 'Nicht gefunden',
      summary: 'Unter dieser URL gibt es keine Ressource.',
      action: 'Prüfen Sie die URL; die Server-Metadaten und das OpenAPI-Dokument führen auf, was es gibt.',
    },
  },
};
