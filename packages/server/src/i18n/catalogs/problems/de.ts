import type { ProblemProseTable } from '../catalog.js';

/**
 * German (Sie) prose of every page of the error catalog, by slug: what a page says of the entry. Wire
 * values (parameter and field names, codes, headers, settings, the exact English `detail` texts) stay as
 * the wire has them.
 */
export const deProblems: ProblemProseTable = {
  'organization-not-member': {
    title: 'Sie sind kein Mitglied dieser Organisation',
    summary:
      'Die Anwendung wollte Sie für eine Organisation anmelden (ihr Parameter organization), die es auf diesem Server nicht gibt oder in der Ihr Konto kein Mitglied ist. Es wurde nichts gewährt.',
    action:
      'Kehren Sie zur Anwendung zurück und wählen Sie eine Ihrer Organisationen, oder bitten Sie eine Administratorin oder einen Administrator der Organisation, Sie hinzuzufügen.',
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
  'invalid-request': {
    title: 'Ungültige Anfrage',
    summary:
      'Der Anfrage fehlt ein erforderlicher Parameter, sie wiederholt einen Parameter oder hat keinen formularkodierten Body; am Autorisierungsendpunkt fehlt ihr eine PKCE-code_challenge mit S256.',
    action:
      'Korrigieren Sie die Anfrage so, wie die error_description es sagt; unverändert erneut gesendet, schlägt sie wieder fehl.',
  },
  'invalid-client': {
    title: 'Client-Authentifizierung fehlgeschlagen',
    summary:
      'Der Client konnte nicht authentifiziert werden: unbekannter Client (oder, am Endpunkt für die Geräteautorisierung, eine client_id-URL, deren Client-ID-Metadatendokument nicht abgerufen werden konnte, ungültig ist oder hier nicht akzeptiert wird), falsches Secret, keine Anmeldedaten, mehr als eine Authentifizierungsmethode oder eine Methode, die der Client nicht verwenden darf (ein Client mit private_key_jwt oder mit dem FAPI-2.0-Profil hat ein Secret gesendet; seine Client-Assertion wurde mit einem anderen Algorithmus als PS256, ES256 oder EdDSA signiert).',
    action:
      'Dies ist ein Konfigurationsfehler: Prüfen Sie Client-ID, Secret und Authentifizierungsmethode. Behalten Sie Ihre Tokens; authentifizieren Sie den Benutzer nicht erneut.',
  },
  'invalid-grant': {
    title: 'Berechtigung abgelehnt',
    summary:
      'Das Refresh-Token oder der Autorisierungscode ist abgelaufen, widerrufen, über seiner Rotationsgrenze, an einen anderen Client ausgegeben oder unbekannt. Die Ablehnung ist endgültig.',
    action:
      'Versuchen Sie dasselbe Token nicht erneut: Es schlägt wieder fehl, jetzt und später. Verwerfen Sie es und schicken Sie den Benutzer erneut durch den vollständigen Autorisierungsablauf, um eine neue Berechtigung zu erhalten. Optional können Sie das Token per Introspection prüfen, um den Widerruf zu bestätigen.',
  },
  'unauthorized-client': {
    title: 'Grant-Typ für diesen Client nicht erlaubt',
    summary:
      'Der Client ist für den verwendeten Grant-Typ nicht registriert oder, am Autorisierungsendpunkt, nicht für den Autorisierungscode-Ablauf.',
    action:
      'Dies ist ein Konfigurationsfehler: Bitten Sie den Betreiber, den Grant-Typ für den Client zu erlauben, oder verwenden Sie einen erlaubten.',
  },
  'unsupported-grant-type': {
    title: 'Nicht unterstützter Grant-Typ',
    summary:
      'Der grant_type gehört nicht zu denen, die dieser Server unterstützt (authorization_code, refresh_token, client_credentials, urn:ietf:params:oauth:grant-type:device_code).',
    action:
      'Verwenden Sie einen unterstützten Grant-Typ; die Server-Metadaten führen sie in grant_types_supported auf.',
  },
  'invalid-scope': {
    title: 'Ungültiger Scope',
    summary:
      'Der angeforderte Scope ist fehlerhaft oder geht über das hinaus, was der Client oder die Berechtigung erlaubt.',
    action:
      'Fordern Sie nur Scopes an, für die der Client registriert ist; beim Refresh nur Scopes der ursprünglichen Berechtigung.',
  },
  'unsupported-token-type': {
    title: 'Dieser Token-Typ kann nicht widerrufen werden',
    summary: 'Access-Tokens sind kurzlebige signierte JWTs und werden nicht einzeln widerrufen.',
    action:
      'Widerrufen Sie stattdessen das Refresh-Token: Das widerruft die ganze Berechtigung, und Access-Tokens einer widerrufenen Berechtigung werden von der API abgelehnt.',
  },
  'invalid-redirect-uri': {
    title: 'Ungültige Redirect-URI',
    summary:
      'Eine Client-Registrierung (RFC 7591 §3.2.2) nannte für den Autorisierungscode-Grant keine Redirect-URI oder eine, die keine absolute https-URI ohne Fragment ist und auch kein einfaches http auf einem Loopback-IP-Literal (127.0.0.1 oder [::1], RFC 8252 §7.3). Es wurde nichts registriert oder geändert.',
    action:
      'Registrieren Sie https-Redirect-URIs oder, für eine native App oder einen Agenten auf diesem Rechner, http://127.0.0.1/… bzw. http://[::1]/… (bei der Autorisierung passt jeder Port).',
  },
  'invalid-client-metadata': {
    title: 'Ungültige Client-Metadaten',
    summary:
      'Eine Client-Registrierung (RFC 7591 §2, §3.2.2) sandte Metadaten, die der Server nicht akzeptiert: ein Feld mit falschem Typ, grant_types und response_types, die nicht zusammenpassen, eine Authentifizierungsmethode oder ein Scope, den der Server nicht anbietet, ein vertraulicher Client ohne Initial Access Token oder das Profil fapi2 für einen Client, der FAPI 2.0 nicht einhalten könnte. Es wurde nichts registriert oder geändert.',
    action:
      'Korrigieren Sie das Feld, das die error_description nennt, und registrieren Sie erneut; die Server-Metadaten führen die angebotenen Grant-Typen, Scopes und Authentifizierungsmethoden auf.',
  },
  'invalid-target': {
    title: 'Unbekannte Ressource',
    summary:
      'Die Autorisierungs- oder Token-Anfrage nannte eine Ressource (RFC 8707 §2), die dieser Server nicht bedient: weder seinen Issuer noch seine REST-API ({issuer}/v2); oder ein Token-Austausch (RFC 8693 §2.2.2) nannte eine Zielgruppe oder Ressource, die die Token-Austausch-Richtlinie des Clients nicht aufführt. Es wurde weder Code noch Token ausgegeben.',
    action:
      'Senden Sie den resource-Wert aus den Metadaten der geschützten Ressource (RFC 9728) unverändert, oder gar keine Ressource für ein Token für den ganzen Server. Bitten Sie für einen Token-Austausch den Betreiber, das Ziel zu den Token-Austausch-Zielgruppen des Clients hinzuzufügen.',
  },
  'access-denied': {
    title: 'Zugriff verweigert',
    summary:
      'Der Benutzer hat die Autorisierungsanfrage auf der Zustimmungsseite abgelehnt. Der Autorisierungsserver sendet dies an die redirect_uri; es wurde kein Code ausgegeben. Ein Gerät, das den Token-Endpunkt abfragt, erhält dies, sobald der Benutzer seinen Gerätecode auf der Seite /device abgelehnt hat (RFC 8628 §3.5).',
    action:
      'Teilen Sie dem Benutzer mit, dass die Anwendung keinen Zugriff erhalten hat, und bieten Sie an, den Autorisierungsablauf neu zu starten, wenn er es möchte. Versuchen Sie es nicht von selbst erneut.',
  },
  'unsupported-response-type': {
    title: 'Nicht unterstützter Response-Typ',
    summary:
      'Die Autorisierungsanfrage verlangte einen anderen response_type als code. Nur der Autorisierungscode-Ablauf mit PKCE wird bedient; der implizite Ablauf (token) nicht.',
    action:
      'Senden Sie response_type=code mit einer PKCE-code_challenge mit S256 und tauschen Sie den Code dann am Token-Endpunkt ein.',
  },
  'server-error': {
    title: 'Serverfehler',
    summary: 'Der Server stieß auf einen unerwarteten Zustand. Am Token hat sich nichts geändert.',
    action:
      'Versuchen Sie es mit exponentiellem Backoff erneut; melden Sie das Problem dem Betreiber, wenn es bestehen bleibt.',
  },
  'temporarily-unavailable': {
    title: 'Vorübergehend nicht verfügbar',
    summary:
      'Der Server ist überlastet oder sein Speicher ist ausgelastet (503), oder der Client oder seine Adresse hat mehr Anfragen gesendet, als sein Ratenlimit erlaubt (429). Am Token hat sich nichts geändert.',
    action:
      'Versuchen Sie es nach der Wartezeit aus Retry-After (ganze Sekunden) mit exponentiellem Backoff erneut. Senden Sie bei 429 weniger Anfragen: Verwenden Sie Access-Tokens bis zu ihrem Ablauf, statt früh zu erneuern, und speichern Sie Introspection-Antworten kurz zwischen.',
  },
  'login-required': {
    title: 'Anmeldung erforderlich',
    summary:
      'Die Authentifizierungsanfrage enthielt prompt=none, aber der Benutzer ist nicht angemeldet (oder länger angemeldet, als max_age erlaubt). Es wurde keine Seite angezeigt.',
    action:
      'Schicken Sie den Benutzer erneut durch die Autorisierungsanfrage, ohne prompt=none, damit er sich anmelden kann.',
  },
  'consent-required': {
    title: 'Zustimmung erforderlich',
    summary:
      'Die Authentifizierungsanfrage enthielt prompt=none, aber der Benutzer hat dieser Anwendung den angeforderten Scope nicht erlaubt. Es wurde keine Seite angezeigt.',
    action:
      'Schicken Sie den Benutzer erneut durch die Autorisierungsanfrage, ohne prompt=none, damit er zustimmen kann.',
  },
  'interaction-required': {
    title: 'Interaktion erforderlich',
    summary:
      'Die Authentifizierungsanfrage enthielt prompt=none, braucht aber eine Handlung des Benutzers: Ihr id_token_hint nennt einen anderen Benutzer als den angemeldeten, der das Konto wechseln müsste. Es wurde keine Seite angezeigt.',
    action: 'Schicken Sie den Benutzer erneut durch die Autorisierungsanfrage, ohne prompt=none.',
  },
  'bearer-invalid-token': {
    title: 'Ungültiges Access-Token',
    summary:
      'Der Userinfo-Endpunkt erhielt kein Access-Token oder eines, das abgelaufen ist, nicht von diesem Server signiert wurde, von einem anderen Issuer oder für eine andere Zielgruppe ausgestellt wurde (ein mit einem anderen ISSUER erzeugtes Token) oder dessen Berechtigung widerrufen wurde; oder ein Endpunkt der Client-Registrierung (RFC 7591 §3, RFC 7592 §3) erhielt kein gültiges Initial oder Registration Access Token.',
    action:
      'Erneuern Sie das Access-Token (oder melden Sie den Benutzer erneut an) und versuchen Sie es mit dem neuen erneut. An den Registrierungsendpunkten: Bitten Sie den Betreiber um ein neues Initial Access Token oder registrieren Sie den Client erneut.',
  },
  'bearer-insufficient-scope': {
    title: 'Unzureichender Scope',
    summary: 'Dem Access-Token wurde der Scope openid nicht gewährt, den der Userinfo-Endpunkt verlangt.',
    action: 'Fordern Sie in der Autorisierungsanfrage den Scope openid an.',
  },
  'authorization-pending': {
    title: 'Autorisierung ausstehend',
    summary:
      'Der Gerätecode ist gültig, aber der Benutzer hat den Benutzercode noch nicht eingegeben und die Anfrage auf der Seite /device weder zugelassen noch abgelehnt (RFC 8628 §3.5).',
    action:
      'Fragen Sie den Token-Endpunkt weiter mit demselben device_code ab und warten Sie zwischen den Anfragen das Intervall ab (5 Sekunden, sofern die Antwort der Geräteautorisierung nichts anderes sagte).',
  },
  'slow-down': {
    title: 'Zu schnelle Abfrage',
    summary:
      'Das Gerät hat den Token-Endpunkt früher abgefragt, als das Intervall erlaubt. Die Autorisierung steht weiter aus, und das Intervall für diesen Gerätecode ist jetzt 5 Sekunden länger (RFC 8628 §3.5).',
    action:
      'Verlängern Sie das Abfrageintervall für diese und jede spätere Anfrage dieses Gerätecodes um 5 Sekunden und fragen Sie dann weiter ab.',
  },
  'expired-token': {
    title: 'Gerätecode abgelaufen',
    summary:
      'Der Gerätecode ist abgelaufen (10 Minuten nach seiner Ausgabe), bevor er zugelassen und eingelöst wurde; die Geräteautorisierung ist beendet (RFC 8628 §3.5).',
    action:
      'Beenden Sie die Abfrage. Beginnen Sie mit einer neuen Geräteautorisierungsanfrage und zeigen Sie dem Benutzer den neuen Benutzercode.',
  },
  'invalid-request-object-error': {
    title: 'Ungültiges Request-Objekt',
    summary:
      'Der Parameter request ist kein Request-Objekt, das der Server akzeptiert (RFC 9101 §7): kein JWT, das mit einem der registrierten Schlüssel des Clients mit einem asymmetrischen Algorithmus signiert ist, oder sein iss ist nicht die client_id, sein aud nicht der Issuer, sein exp fehlt oder ist vorbei, sein nbf liegt in der Zukunft, oder es nennt einen anderen Client.',
    action:
      'Signieren Sie das Request-Objekt mit einem Schlüssel aus jwks oder jwks_uri des Clients, mit iss gleich der client_id, aud gleich dem Issuer-Bezeichner und exp einige Minuten in der Zukunft, und senden Sie es erneut.',
  },
  'token-invalid-dpop-proof': {
    title: 'Ungültiger DPoP-Nachweis',
    summary:
      'Die Token-Anfrage oder die Pushed Authorization Request (RFC 9449 §10.1) trug einen DPoP-Header (RFC 9449 §4), der nicht genau ein gültiger Nachweis ist: kein kompaktes JWS mit typ dpop+jwt, ein Algorithmus außerhalb von dpop_signing_alg_values_supported, ein privater oder fehlerhafter jwk, eine falsche Signatur, htm oder htu, die nicht diese Anfrage bezeichnen, ein iat außerhalb des Zeitfensters oder ein bereits verwendeter jti; oder der Client ist mit dpop_bound_access_tokens oder dem FAPI-2.0-Profil (profile fapi2) registriert und sandte dem Token-Endpunkt keinen Nachweis.',
    action:
      'Senden Sie genau einen DPoP-Header mit einem frischen Nachweis für diese Anfrage (htm POST, htu der aufgerufene Endpunkt, Token- oder Pushed Authorization Request, ohne Query, ein neuer jti, die aktuelle Zeit als iat), signiert mit einem Algorithmus, den der Server ankündigt.',
  },
  'token-use-dpop-nonce': {
    title: 'DPoP-Nonce erforderlich',
    summary:
      'Der Server verlangt in DPoP-Nachweisen eine vom Server gelieferte Nonce (RFC 9449 §8), und der Nachweis hatte keine oder eine nicht mehr aktuelle. Die Antwort nennt die zu verwendende Nonce in ihrem Header DPoP-Nonce.',
    action:
      'Erstellen Sie einen neuen Nachweis, dessen nonce-Claim der Header DPoP-Nonce dieser Antwort ist, und senden Sie die Anfrage erneut.',
  },
  'missing-required-field': {
    title: 'Erforderliches Feld fehlt',
    summary:
      'Ein erforderliches Feld fehlt im JSON-Body oder ist null, wo sein Schema null nicht erlaubt. Das detail lautet genau: Missing required field \'<field_name>\' in request body. Jedes fehlende Feld wird in errors aufgeführt. Null ist nur dort ein Wert und kein fehlendes Feld, wo das Schema es ausdrücklich erlaubt: nullable: true in OpenAPI 3.0, ein Typ mit "null" in OpenAPI 3.1.',
    action:
      'Fügen Sie das Feld mit einem gültigen Wert hinzu und senden Sie erneut. Prüfen Sie Bodies vor dem Senden gegen das Schema (GET /v2/openapi.json). Ein Wechsel von POST zu PUT umgeht die Prüfung nicht.',
  },
  'invalid-field-value': {
    title: 'Ungültiger Feldwert',
    summary:
      'Ein Feld ist vorhanden, aber sein Wert ist nicht zulässig: ein leerer oder falsch formatierter Wert, ein falscher Typ, ein Feld, das das Schema ablehnt (additionalProperties: false), oder ein schreibgeschütztes Feld wie id mit einem anderen Wert als dem des Datensatzes (oder beim Anlegen überhaupt gesendet).',
    action: 'Senden Sie für jedes in errors aufgeführte Feld einen korrekt formatierten Wert.',
  },
  'malformed-json': {
    title: 'Fehlerhaftes JSON',
    summary:
      'Der Body ist kein gültiges JSON in UTF-8, verschachtelt Arrays und Objekte tiefer als 64 Ebenen oder ist leer, wo ein Body erforderlich ist.',
    action: 'Senden Sie ein wohlgeformtes JSON-Dokument.',
  },
  'invalid-parameter': {
    title: 'Ungültiger Query-Parameter',
    summary:
      'Ein Query-Parameter hat einen Wert, den der Endpunkt nicht akzeptiert, etwa eine Seitengröße außerhalb des Bereichs oder einen Cursor, den er nicht ausgegeben hat.',
    action: 'Senden Sie den Parameter so, wie das detail es sagt, oder lassen Sie ihn weg.',
  },
  'unsupported-media-type': {
    title: 'Nicht unterstützter Medientyp',
    summary:
      'Der Body hat einen Content-Type, den dieser Endpunkt nicht akzeptiert, oder ein Content-Encoding (etwa gzip): Bodies werden nur so gelesen, wie sie gesendet wurden (diese Antwort trägt Accept-Encoding: identity).',
    action:
      'Senden Sie Content-Type: application/json (application/merge-patch+json für PATCH) und den Body ohne Content-Encoding.',
  },
  'payload-too-large': {
    title: 'Body zu groß',
    summary: 'Der Body ist größer, als der Server akzeptiert.',
    action: 'Senden Sie einen kleineren Body.',
  },
  'invalid-token': {
    title: 'Ungültiges Access-Token',
    summary:
      "Das Bearer-Access-Token fehlt, ist fehlerhaft, abgelaufen, mit einem unbekannten Schlüssel signiert oder gehört zu einer widerrufenen Berechtigung; oder die Schlüssel dieses Servers haben es für einen anderen Issuer oder eine andere Zielgruppe signiert (mit einem anderen ISSUER erzeugt), und das detail lautet dann: The access token was issued by '<iss>', not by this server ('<issuer>'). oder The access token is for the audience '<aud>', not for this server ('<issuer>').",
    action:
      'Erneuern Sie das Access-Token; wird die Erneuerung mit invalid_grant abgelehnt, durchlaufen Sie den Autorisierungsablauf erneut.',
  },
  'insufficient-scope': {
    title: 'Unzureichender Scope',
    summary:
      "Das Access-Token ist gültig, aber ihm fehlt der Scope, den diese Operation braucht; das detail lautet: This operation needs the scope '<scope>'. (oder '<scope>' or '<scope>'., wenn mehrere Alternativen genügen).",
    action: 'Beschaffen Sie ein Token mit dem Scope, den der Header WWW-Authenticate nennt.',
  },
  'insufficient-role': {
    title: 'Unzureichende Rolle',
    summary:
      "Das Access-Token ist gültig, aber seinem Inhaber fehlt eine Rolle, die diese Operation braucht (RFC 9068 §2.2.3.1 `roles`, wie die Operation sie in `x-required-roles` erklärt); das detail lautet: This operation needs the role '<role>'. (oder '<role>' or '<role>'., wenn mehrere genügen). An der Admin-API: Das Token eines Benutzers ist für die Zielgruppe '{issuer}/admin/v1', und sein Benutzer hat admin, user-manager oder auditor, wie die Operation es erlaubt.",
    action:
      'Bitten Sie einen Betreiber um die Rolle (gatehouse roles assign) und erneuern Sie dann das Access-Token: Rollen ändern sich mit dem nächsten Token.',
  },
  'step-up-required': {
    title: 'Für diese Operation erneut anmelden',
    summary:
      'Eine gefährliche Operation der Admin-API (einen Client, Benutzer, Upstream-Anbieter, eine Organisation, Gruppe oder Rolle löschen, ein neues Client-Secret, einen Signaturschlüssel rotieren oder ausmustern; das Dokument kennzeichnet jede mit x-step-up-max-age) wurde mit dem Access-Token eines Benutzers aufgerufen, dessen Anmeldung (sein auth_time, RFC 9068 §2.2.1) älter als 300 Sekunden ist oder das nicht sagt, wann sein Benutzer sich angemeldet hat. Die WWW-Authenticate-Challenge lautet error="insufficient_user_authentication" mit max_age="300" (RFC 9470 §3). Das eigene Token eines Admin-Clients (client_credentials) hat keine Anmeldung und wird nicht gefragt. Es wurde nichts geändert.',
    action:
      'Schicken Sie den Benutzer mit max_age=300 und prompt=login erneut über den Autorisierungsendpunkt (OpenID Connect Core §3.1.2.1) und wiederholen Sie die Operation mit dem neuen Access-Token.',
  },
  'invalid-dpop-proof': {
    title: 'Ungültiger DPoP-Nachweis',
    summary:
      'Das Access-Token ist an DPoP gebunden (RFC 9449), und sein Nachweis fehlt oder wird abgelehnt: Der DPoP-Header ist nicht genau ein kompaktes JWS mit typ dpop+jwt, signiert mit einem akzeptierten Algorithmus durch den mitgeführten öffentlichen Schlüssel, oder sein htm, htu, iat, ath oder jti passt nicht zu dieser Anfrage (ein bereits verwendeter Nachweis wird abgelehnt), oder er ist mit einem anderen Schlüssel signiert als dem, an den das Token gebunden ist. Die DPoP-Challenge in WWW-Authenticate nennt die akzeptierten Algorithmen.',
    action:
      'Senden Sie Authorization: DPoP <token> mit einem frischen Nachweis für diese Anfrage (htm, htu ohne Query, ein neuer jti, ath des Tokens), signiert mit dem Schlüssel, an den das Token gebunden ist.',
  },
  'use-dpop-nonce': {
    title: 'DPoP-Nonce erforderlich',
    summary:
      'Dem DPoP-Nachweis fehlt die Nonce, die dieser Server liefert, oder er trägt eine, die nicht mehr akzeptiert wird (RFC 9449 §9). Die Antwort nennt die aktuelle Nonce in ihrem Header DPoP-Nonce.',
    action:
      'Erstellen Sie einen neuen Nachweis, dessen nonce-Claim der Header DPoP-Nonce dieser Antwort ist, und versuchen Sie es einmal erneut.',
  },
  'owner-required': {
    title: 'Ein Benutzer ist erforderlich',
    summary:
      'Die Datensätze der Sammlung gehören den Benutzern, die sie angelegt haben (x-gatehouse-ownership: owner im OpenAPI-Dokument), und das Access-Token handelt für keinen Benutzer: Es wurde an den Client selbst ausgegeben (der Grant client_credentials). x-gatehouse-client-access im Dokument sagt, was ein solches Token dort darf: none (Standard für Datensätze mit Eigentümer), read oder read-write.',
    action:
      'Rufen Sie die API mit einem Access-Token auf, das ein Benutzer gewährt hat (Autorisierungscode- oder Geräteablauf); ein Dienst, der die Datensätze aller Benutzer erreichen muss, bittet den Betreiber, x-gatehouse-client-access für die Sammlung zu erklären.',
  },
  'method-not-allowed': {
    title: 'Methode nicht erlaubt',
    summary: 'Die Ressource existiert, unterstützt diese HTTP-Methode aber nicht.',
    action: 'Verwenden Sie eine der Methoden, die der Header Allow aufführt.',
  },
  'precondition-failed': {
    title: 'Vorbedingung nicht erfüllt',
    summary: 'If-Match nennt eine Version des Datensatzes, die nicht mehr aktuell ist.',
    action:
      'Rufen Sie den Datensatz erneut ab, wenden Sie Ihre Änderung erneut an und senden Sie sie mit dem neuen ETag.',
  },
  'invalid-operator-input': {
    title: 'Ungültige Eingabe des Betreibers',
    summary:
      'Eine administrative Anfrage nennt etwas, das nicht existiert, bereits existiert oder eine Regel des Servers verletzt (zum Beispiel ein Scope, der weiter ist, als der Client verwenden darf). Das detail sagt, was.',
    action:
      'Korrigieren Sie die Anfrage so, wie das detail es sagt, und senden Sie sie erneut; dieselbe Anfrage wird wieder abgelehnt.',
  },
  conflict: {
    title: 'Existiert bereits',
    summary:
      'Eine administrative Anfrage legt etwas an, dessen Bezeichner vergeben ist: eine Client-ID oder ein Benutzername, die es schon gibt. Es wurde nichts geschrieben.',
    action:
      'Wählen Sie einen anderen Bezeichner oder ändern Sie den vorhandenen (PUT), statt ihn anzulegen; dieselbe Anfrage wird wieder abgelehnt.',
  },
  'invalid-email-address': {
    title: 'An diese E-Mail-Adresse kann keine Mail zugestellt werden',
    summary:
      'Die E-Mail-Adresse ist nicht genau eine Adresse der Form name@domain: Sie ist leer, länger als 254 Zeichen (RFC 5321 §4.5.3.1.3) oder hat einen Namensteil über 64, enthält einen Anzeigenamen, eine Gruppe, mehrere Adressen, Anführungszeichen, Leerzeichen, einen Zeilenumbruch oder ein anderes Steuerzeichen (ein Zeilenumbruch könnte der Nachricht einen Header hinzufügen), oder ihre Domain ist kein gültiger Hostname. Es wurde nichts eingereiht und keine Mail gesendet.',
    action: 'Korrigieren Sie die Adresse (zum Beispiel alice@example.com) und senden Sie sie erneut.',
  },
  'invalid-email-message': {
    title: 'Diese E-Mail konnte nicht eingereiht werden',
    summary:
      'Eine an den Postausgang übergebene Nachricht verletzt eine Regel für Mails: Ihre Betreffzeile enthält einen Zeilenumbruch oder ein anderes Steuerzeichen (das der Nachricht einen Header hinzufügen könnte) oder ist länger als 998 Zeichen (RFC 5322 §2.1.1), ein Inhalt ist leer, oder ihre Art oder Sprache ist fehlerhaft. Es wurde nichts eingereiht und keine Mail gesendet; das detail nennt den Teil.',
    action:
      'Dies ist ein Fehler des Servers oder des Textes, den er erhielt (zum Beispiel ein Name mit Zeilenumbruch im Betreff); korrigieren Sie diesen Text und versuchen Sie es erneut, oder informieren Sie den Betreiber.',
  },
  'email-verification-link-invalid': {
    title: 'Dieser Bestätigungslink funktioniert nicht mehr',
    summary:
      'Der Link zum Bestätigen einer E-Mail-Adresse wurde bereits verwendet, ist älter als 24 Stunden, wurde durch eine neuere Bestätigungsmail beendet, das Konto hat inzwischen eine andere Adresse, oder er stammt nicht von diesem Server. Jeder Link funktioniert einmal. Es wurde nichts geändert.',
    action:
      'Melden Sie sich an und öffnen Sie Ihre Kontoseite: Sie zeigt, ob die Adresse bestätigt ist, und sendet eine neue Mail, wenn nicht.',
  },
  'verification-code-invalid': {
    title: 'Dieser Bestätigungscode hat nicht funktioniert',
    summary:
      'Der sechsstellige Code ist nicht der aus der neuesten Bestätigungsmail, wurde bereits verwendet oder ist älter als 24 Stunden. Nach 10 falschen Codes innerhalb einer Stunde für ein Konto wird eine Zeit lang kein Code geprüft (429, mit Retry-After). Es wurde nichts geändert.',
    action:
      'Geben Sie den Code aus der neuesten Mail ein oder öffnen Sie stattdessen deren Link; oder fordern Sie auf der Kontoseite eine neue Mail an.',
  },
  'email-address-missing': {
    title: 'Dieses Konto hat keine E-Mail-Adresse, die bestätigt werden könnte',
    summary:
      'Der Server verlangt eine bestätigte E-Mail-Adresse, bevor eine Anmeldung abgeschlossen wird (EMAIL_VERIFICATION=required), und dieses Konto hat gar keine Adresse, also kann kein Code gesendet werden. Das Passwort war richtig; die Anmeldung endet hier, und es wurde nichts geändert.',
    action:
      'Bitten Sie einen Administrator, dem Konto eine E-Mail-Adresse hinzuzufügen (gatehouse users update NAME --email ADRESSE oder die Admin-API), und melden Sie sich dann erneut an.',
  },
  'upstream-unavailable': {
    title: 'Ihr Identitätsanbieter antwortet nicht',
    summary:
      'Die Anmeldung läuft über einen Identitätsanbieter, dem Gatehouse vertraut (Föderation), und er hat nicht rechtzeitig oder mit einem Serverfehler geantwortet, oder sein Discovery-Dokument konnte nicht gelesen werden. Es wurde niemand angemeldet und nichts geändert.',
    action:
      'Warten Sie einen Moment und wählen Sie „Erneut versuchen“. Schlägt es weiter fehl, ist der Identitätsanbieter ausgefallen oder von Gatehouse aus nicht erreichbar: Informieren Sie den Betreiber oder melden Sie sich auf andere Weise an.',
  },
  'upstream-misconfigured': {
    title: 'Die Anmeldung mit diesem Identitätsanbieter ist nicht richtig eingerichtet',
    summary:
      'Gatehouse hat sich geweigert, eine Anfrage an den Identitätsanbieter zu senden, der Anbieter wurde also nie gefragt: Seine Konfiguration verletzt eine eigene Regel von Gatehouse (das detail nennt sie), etwa einfaches http zu einem Host, der nicht Loopback ist. Es wurde niemand angemeldet. Es ist nicht bekannt, dass der Anbieter ausgefallen ist.',
    action:
      'Melden Sie sich auf andere Weise an und nennen Sie dem Betreiber das detail. Betreiber: Korrigieren Sie den Eintrag des Anbieters (docs/federation.md, Configuring upstreams) und wenden Sie ihn erneut an.',
  },
  'upstream-access-denied': {
    title: 'Ihr Identitätsanbieter hat die Anmeldung abgelehnt',
    summary:
      'Der Identitätsanbieter antwortete access_denied (RFC 6749 §4.1.2.1): Sie haben abgebrochen, oder er lässt Ihr Konto diese Anwendung nicht verwenden. Es wurde niemand angemeldet.',
    action:
      'Starten Sie die Anmeldung erneut aus der Anwendung, oder bitten Sie die Administration Ihres Identitätsanbieters um Zugang.',
  },
  'upstream-login-required': {
    title: 'Ihr Identitätsanbieter verlangt, dass Sie sich anmelden',
    summary:
      'Der Identitätsanbieter antwortete login_required, interaction_required oder consent_required (OIDC Core §3.1.2.6): Er konnte Sie nicht anmelden, ohne Ihnen eine Seite zu zeigen. Es wurde niemand angemeldet.',
    action: 'Starten Sie die Anmeldung erneut aus der Anwendung; der Identitätsanbieter zeigt dann seine Anmeldeseite.',
  },
  'upstream-sign-in-failed': {
    title: 'Ihr Identitätsanbieter konnte Sie nicht anmelden',
    summary:
      'Der Identitätsanbieter schickte den Browser mit einem anderen Fehler als access_denied oder login_required zurück (RFC 6749 §4.1.2.1; das detail nennt ihn), oder ein Link mit einem solchen Fehler wurde geöffnet. Es wurde niemand angemeldet.',
    action:
      'Starten Sie die Anmeldung erneut aus der Anwendung. Passiert es wieder, nennen Sie dem Betreiber den Fehler aus dem detail: Der Anbieter lehnt möglicherweise ab, was Gatehouse von ihm verlangt (einen Scope, den Client).',
  },
  'upstream-code-refused': {
    title: 'Diese Anmeldung konnte nicht abgeschlossen werden',
    summary:
      'Der Identitätsanbieter lehnte den Code ab, den dieser Browser zurückbrachte (invalid_grant oder invalid_request, RFC 6749 §5.2): Er wurde schon verwendet, ist abgelaufen oder wurde für eine andere Anmeldung ausgegeben, etwa einen Link, der in einem anderen Browser geöffnet wurde. Er wurde abgelehnt und festgehalten; es wurde niemand angemeldet.',
    action:
      'Starten Sie die Anmeldung erneut aus der Anwendung, in diesem Browser, und schließen Sie sie dort ab; ein Anmeldelink kann nicht zweimal oder in einem anderen Browser geöffnet werden.',
  },
  'upstream-error': {
    title: 'Ihr Identitätsanbieter hat mit einem Fehler geantwortet',
    summary:
      'Der Identitätsanbieter hat Gatehouse selbst etwas geantwortet, das es nicht verwenden kann: einen OAuth-Fehler an seinem Token- oder Userinfo-Endpunkt, der nicht den Code betrifft (invalid_client, unauthorized_client: das detail nennt ihn), ein Discovery-Dokument, das einen anderen Issuer nennt, oder eine Antwort, die nicht dem Protokoll entspricht. Es wurde niemand angemeldet.',
    action:
      'Melden Sie sich auf andere Weise an und nennen Sie dem Betreiber das detail: Die Registrierung von Gatehouse beim Anbieter oder der Anbieter selbst muss korrigiert werden.',
  },
  'upstream-token-invalid': {
    title: 'Die Antwort des Identitätsanbieters wurde abgelehnt',
    summary:
      'Das ID-Token oder der Rückruf des Identitätsanbieters hat die Prüfung nicht bestanden (OIDC Core §3.1.3.7, RFC 9207): unsigniert (alg none) oder falsch signiert, von einem anderen Issuer, für eine andere Zielgruppe, abgelaufen, mit falscher Nonce, oder ein Rückruf, der einen anderen Issuer nennt. Es wurde abgelehnt und im Audit-Protokoll festgehalten; es wurde niemand angemeldet.',
    action:
      'Starten Sie die Anmeldung erneut aus der Anwendung. Passiert es wieder, informieren Sie den Betreiber: Die Antwort wurde möglicherweise manipuliert.',
  },
  'federation-state-invalid': {
    title: 'Diese Anmeldung ist abgelaufen oder wurde bereits verwendet',
    summary:
      'Die Antwort des Identitätsanbieters trug einen state, den Gatehouse nicht an diesen Browser gesendet hat, vor mehr als zehn Minuten gesendet hat oder der schon verwendet wurde (RFC 6749 §10.12, RFC 9700 §4.7). Es kann ein gefälschter oder wiederholter Link sein. Er wurde abgelehnt und festgehalten; es wurde niemand angemeldet.',
    action: 'Kehren Sie zur Anwendung zurück und starten Sie die Anmeldung erneut, im selben Browser.',
  },
  'federation-no-provider': {
    title: 'Kein Identitätsanbieter für diese Adresse',
    summary:
      'Die eingegebene E-Mail-Adresse gehört zu einer Domain, die kein Identitätsanbieter dieses Servers bedient, oder der gewählte Anbieter ist nicht mehr konfiguriert.',
    action: 'Prüfen Sie die Adresse oder melden Sie sich mit Benutzername und Passwort an.',
  },
  'federation-no-account': {
    title: 'Kein Konto für diese Anmeldung',
    summary:
      'Der Identitätsanbieter hat Sie angemeldet, aber mit dieser Identität ist kein lokales Konto verknüpft, und der Betreiber lässt diesen Anbieter bei der ersten Anmeldung keine Konten anlegen.',
    action:
      'Bitten Sie den Betreiber, Ihr Konto anzulegen, oder melden Sie sich mit Benutzername und Passwort an und verknüpfen Sie den Anbieter von dort aus.',
  },
  'federation-unlink-refused': {
    title: 'Dies ist Ihre einzige Möglichkeit, sich anzumelden',
    summary:
      'Würde dieser Identitätsanbieter getrennt, bliebe dem Konto keine Möglichkeit zur Anmeldung: Es hat kein Passwort und keinen anderen verknüpften Anbieter. Es wurde nichts geändert.',
    action:
      'Bitten Sie den Betreiber, zuerst ein Passwort für Ihr Konto festzulegen, und trennen Sie dann den Anbieter.',
  },
  'organization-domain-public': {
    title: 'Öffentliche Mail-Domain',
    summary:
      'Eine administrative Anfrage gibt einer Organisation die E-Mail-Domain eines öffentlichen Mail-Anbieters (gmail.com, outlook.com, yahoo.com und ähnliche) oder von Wegwerfadressen. Jeder kann dort eine Adresse haben, eine solche Domain sagt also nichts darüber, wer für die Organisation arbeitet: Sie würde Fremde bei der Anmeldung zu Mitgliedern machen. Es wurde nichts geschrieben.',
    action:
      'Geben Sie der Organisation eine Domain, die ihr gehört (ihre Firmendomain). Mitglieder mit Adressen bei einem öffentlichen Anbieter werden einzeln hinzugefügt (gatehouse orgs members add).',
  },
  'internal-error': {
    title: 'Interner Serverfehler',
    summary: 'Der Server stieß auf einen unerwarteten Zustand; es wurde nichts geschrieben.',
    action:
      'Versuchen Sie es mit exponentiellem Backoff erneut; melden Sie das Problem dem Betreiber, wenn es bestehen bleibt.',
  },
  'service-unavailable': {
    title: 'Dienst nicht verfügbar',
    summary: 'Der Server ist überlastet oder sein Speicher ist ausgelastet; es wurde nichts geschrieben.',
    action: 'Versuchen Sie es nach der Wartezeit aus Retry-After mit exponentiellem Backoff erneut.',
  },
  'not-ready': {
    title: 'Nicht bereit',
    summary:
      'Die Bereitschaftsprüfung (GET /health/ready) hat festgestellt, dass der Server nicht bedienen kann: Sein Speicher hat nicht innerhalb des Zeitbudgets der Prüfung geantwortet, der Datenbank fehlen Migrationen, die diese Version braucht, oder es konnte kein Signaturschlüssel geladen werden. Das detail sagt, was. Der Prozess selbst lebt (GET /health/live).',
    action:
      'Load Balancer: Senden Sie Anfragen an eine andere Instanz, bis diese wieder 200 antwortet. Betreiber: Starten oder erreichen Sie die Datenbank, führen Sie gatehouse migrate oder gatehouse keys rotate --now aus, wie das detail es sagt.',
  },
  'client-metadata-document-unavailable': {
    title: 'Die Beschreibung dieser Anwendung konnte nicht abgerufen werden',
    summary:
      'Die client_id ist die https-URL eines Client-ID-Metadatendokuments (draft-ietf-oauth-client-id-metadata-document), und der Server konnte es nicht sicher abrufen: Sein Host löst zu einer privaten, Loopback-, Link-Local- oder sonst nicht öffentlichen Adresse auf, oder die URL antwortete mit einer Weiterleitung (nie verfolgt), einem Fehlerstatus, einem Dokument über der Größengrenze oder gar nicht innerhalb der Zeitgrenze. Das detail sagt, was. Es wurde niemand angemeldet und nichts gewährt.',
    action:
      'Kehren Sie zur Anwendung zurück und informieren Sie ihre Entwickler. Diese müssen das Dokument genau unter der client_id-URL bereitstellen, über https von einer öffentlichen Adresse, mit Status 200, ohne Weiterleitung und klein (einige Kilobyte). Betreiber einer privaten Installation können Adressen mit CLIENT_ID_METADATA_ALLOW_ADDRESSES erlauben (docs/agents.md).',
  },
  'client-metadata-document-invalid': {
    title: 'Die Beschreibung dieser Anwendung ist ungültig',
    summary:
      'Das Client-ID-Metadatendokument wurde abgerufen, kann diesen Client aber nicht beschreiben: Es ist kein JSON-Objekt, seine client_id ist nicht genau die URL, von der es abgerufen wurde, es verlangt ein gemeinsames Secret (client_secret_basic, client_secret_post oder ein Feld client_secret), private_key_jwt ohne seine Schlüssel, andere Grants als authorization_code, den Gerätecode-Grant und refresh_token (und mindestens einen der ersten beiden) oder Redirect-URIs, die nicht registriert werden könnten (https oder http auf einem Loopback-IP-Literal). Das detail sagt, was.',
    action:
      'Kehren Sie zur Anwendung zurück und informieren Sie ihre Entwickler: Das Dokument muss draft-ietf-oauth-client-id-metadata-document §4 und den Regeln für Redirect-URIs registrierter Clients folgen (docs/agents.md).',
  },
  'client-metadata-document-not-allowed': {
    title: 'Diese Anwendung ist hier nicht erlaubt',
    summary:
      'Die client_id ist die URL eines Client-ID-Metadatendokuments auf einem Host, den der Betreiber dieses Servers nicht akzeptiert (CLIENT_ID_METADATA_DOCUMENTS=allowlist ohne den Host in CLIENT_ID_METADATA_ALLOW_HOSTS oder der Host in CLIENT_ID_METADATA_DENY_HOSTS), oder keine URL, die ein solches Dokument haben darf (https, ein Pfad, kein Fragment, keine Anmeldedaten oder Punktsegmente). Es wurde nichts abgerufen.',
    action:
      'Bitten Sie den Betreiber des Servers, den Host der Anwendung zu erlauben, oder verwenden Sie einen beim Server registrierten Client (gatehouse clients add oder /register).',
  },
  'invalid-request-uri': {
    title: 'Dieser Anmeldelink ist abgelaufen oder wurde bereits verwendet',
    summary:
      'Die Autorisierungsanfrage nennt eine request_uri, die unbekannt ist, abgelaufen (eine gepushte Anfrage lebt etwa eine Minute), schon einmal verwendet oder von einem anderen Client gepusht wurde, als ihre client_id nennt, oder eine request_uri einer Art, die dieser Server nicht abruft (RFC 9126 §4, RFC 9101 §6.2). Ohne die gepushte Anfrage kann der Server nicht wissen, wohin er Sie sicher zurückschicken könnte.',
    action:
      'Kehren Sie zur Anwendung zurück und beginnen Sie von vorn. Die Entwickler müssen die Autorisierungsanfrage (POST /par) pushen, kurz bevor sie den Browser mit der client_id und der erhaltenen request_uri zu /authorize schicken, einmal.',
  },
  'invalid-request-object': {
    title: 'Dieser Anmeldelink ist nicht korrekt signiert',
    summary:
      'Die Autorisierungsanfrage trägt ein Request-Objekt (den Parameter request, RFC 9101), das kein JWT ist, das mit einem der registrierten Schlüssel des Clients mit einem akzeptierten Algorithmus signiert ist, oder dessen iss nicht die client_id ist, dessen aud nicht der Issuer dieses Servers ist, das abgelaufen oder noch nicht gültig ist oder dessen client_id sich von der der Anfrage unterscheidet (RFC 9101 §6.3).',
    action:
      'Kehren Sie zur Anwendung zurück und informieren Sie ihre Entwickler: Das Request-Objekt ist mit einem Schlüssel aus jwks oder jwks_uri des Clients zu signieren (ES256, PS256, RS256, EdDSA und verwandte), mit iss gleich der client_id, aud gleich dem Issuer und einem kurzen exp.',
  },
  'invalid-logout-request': {
    title: 'Dieser Abmeldelink ist ungültig',
    summary:
      'Die Abmeldeanfrage nennt eine post_logout_redirect_uri, die für die Anwendung nicht registriert ist, nennt keine ihrer Anwendungen oder trägt einen id_token_hint, den dieser Server nicht ausgestellt hat. Der Server kann nicht wissen, wohin er Sie sicher zurückschicken könnte, und hält deshalb hier an, statt weiterzuleiten (OpenID Connect RP-Initiated Logout 1.0 §3).',
    action:
      'Sie können sich auf der einfachen Abmeldeseite abmelden. Die Entwickler müssen einen id_token_hint oder eine client_id senden und genau eine der für den Client registrierten Post-Logout-Redirect-URIs (gatehouse clients add --post-logout-redirect-uri), Zeichen für Zeichen.',
  },
  'passkey-enrolment-failed': {
    title: 'Der Passkey wurde nicht hinzugefügt',
    summary:
      'Der neue Passkey konnte nicht geprüft werden: Die Kontoseite war abgelaufen oder schon verwendet (jede Seite fragt einmal, 5 Minuten lang), der Browser meldete eine andere Website, der Authenticator hat keine Benutzerbestätigung durchgeführt, oder der Passkey ist bereits registriert. Es wurde nichts gespeichert.',
    action: 'Laden Sie die Kontoseite neu und fügen Sie den Passkey erneut hinzu.',
  },
  'malformed-request': {
    title: 'Fehlerhafte Anfrage',
    summary:
      'Die Anfrage ist kein gültiges HTTP/1.1: eine unbekannte Methode, eine CONNECT-Anfrage (der Server ist kein Proxy), eine Anfragezeile ohne HTTP/1.1 (HTTP/0.9), eine fehlerhafte Anfragezeile oder ein fehlerhaftes Header-Feld, ein Body, der kürzer ist als seine Content-Length, oder ein URL-Pfad, der kein gültiges prozentkodiertes UTF-8 ist.',
    action:
      'Senden Sie eine wohlgeformte HTTP/1.1-Anfrage mit dem Pfad als prozentkodiertes UTF-8; dieselben Bytes erneut gesendet schlagen wieder fehl.',
  },
  'request-header-too-large': {
    title: 'Header-Felder der Anfrage zu groß',
    summary:
      'Anfragezeile und Header-Felder zusammen sind größer, als der Server akzeptiert (16 KiB, sofern der Betreiber MAX_HEADER_BYTES nicht gesetzt hat), zum Beispiel eine Autorisierungs-URL mit einem sehr langen state.',
    action: 'Kürzen Sie die URL und die Header-Felder; senden Sie große Werte in einem Body.',
  },
  'request-timeout': {
    title: 'Zeitüberschreitung der Anfrage',
    summary:
      'Die Anfrage kam nicht rechtzeitig an: ihre Header nicht innerhalb von 10 Sekunden oder die ganze Anfrage nicht innerhalb von 30 Sekunden (sofern der Betreiber HEADERS_TIMEOUT_MS oder REQUEST_TIMEOUT_MS nicht gesetzt hat). Es wurde nichts getan.',
    action: 'Senden Sie die Anfrage erneut, ohne mittendrin zu pausieren.',
  },
  'organization-sign-in-method': {
    title: 'Ihre Organisation verlangt eine andere Anmeldung',
    summary:
      'Sie haben sich auf eine Weise angemeldet, die die Organisation, für die die Anwendung Sie anmelden wollte, nicht erlaubt (ihre Anmeldemethoden: ein Passwort, ein Passkey oder der Identitätsanbieter der Organisation). Es wurde nichts gewährt.',
    action:
      'Melden Sie sich ab und melden Sie sich erneut auf eine der Weisen an, die die Details nennen (zum Beispiel mit Ihrem Passkey oder über den Identitätsanbieter Ihres Unternehmens), oder wenden Sie sich an eine Administratorin oder einen Administrator der Organisation.',
  },
  'invitation-link-invalid': {
    title: 'Diese Einladung funktioniert nicht mehr',
    summary:
      'Der Einladungslink wurde bereits verwendet, ist älter als vom Betreiber erlaubt (7 Tage, sofern nicht anders angegeben), wurde widerrufen, gilt für eine Adresse, die inzwischen ein Konto hat, oder für ein Konto, dessen Adresse geändert oder das deaktiviert wurde, gehört einem anderen Konto oder stammt nicht von diesem Server. Jede Einladung funktioniert einmal. Es wurde nichts geändert.',
    action:
      'Bitten Sie die Person, die Sie eingeladen hat, um eine neue Einladung. Wenn Sie sie bereits angenommen haben, melden Sie sich wie gewohnt an.',
  },
  'sign-up-needs-invitation': {
    title: 'Konten werden nur auf Einladung erstellt',
    summary:
      'Dieser Server erstellt Konten nur für Personen, die sein Betreiber eingeladen hat (SIGN_UP=invite): Das Registrierungsformular wurde ohne Einladung geöffnet. Es wurde kein Konto erstellt.',
    action:
      'Öffnen Sie die Einladungs-E-Mail und folgen Sie ihrem Link, oder bitten Sie den Betreiber um eine Einladung. Wenn Sie bereits ein Konto haben, melden Sie sich an.',
  },
  'sign-up-address-not-accepted': {
    title: 'Mit dieser E-Mail-Adresse ist keine Registrierung möglich',
    summary:
      'Die E-Mail-Adresse der Registrierung ist keine Adresse (ein @, eine Domain mit Punkt, keine Leerzeichen, Anführungszeichen, spitzen Klammern, Kommas oder Steuerzeichen, höchstens 254 Zeichen, RFC 5321 §4.5.3.1.3), oder ihre Domain gehört nicht zu denen, die der Betreiber erlaubt (SIGN_UP_DOMAINS). Es wurde kein Konto erstellt und keine E-Mail gesendet.',
    action:
      'Geben Sie Ihre Adresse so ein, wie Sie unter ihr E-Mails erhalten; nennt die Seite die erlaubten Domains, verwenden Sie eine Adresse bei einer davon.',
  },
  'sign-up-name-not-accepted': {
    title: 'Dieser Name kann nicht verwendet werden',
    summary:
      'Der Name der Registrierung ist leer, länger als 128 Zeichen oder enthält einen Zeilenumbruch oder ein anderes Steuerzeichen. Es wurde kein Konto erstellt und keine E-Mail gesendet.',
    action: 'Geben Sie den Namen, den Anwendungen zeigen sollen, in einer Zeile ein.',
  },
  'too-many-sign-ups': {
    title: 'Zu viele Registrierungen',
    summary:
      'Es wurden zu oft Konten angefragt: von dieser Netzwerkadresse (standardmäßig 10 pro Stunde) oder mit Adressen dieser E-Mail-Domain (50 pro Stunde). Für diese Anfrage wurde kein Konto erstellt und keine E-Mail gesendet. Betreiber setzen die Grenzen mit RATE_LIMIT_SIGN_UP_ADDRESS und RATE_LIMIT_SIGN_UP_DOMAIN.',
    action:
      'Warten Sie die im Header Retry-After genannte Zeit ab (die Seite zeigt sie) und registrieren Sie sich dann erneut.',
  },
  'account-deletion-not-confirmed': {
    title: 'Geben Sie Ihren Benutzernamen ein, um das Konto zu löschen',
    summary:
      'Das Löschen eines Kontos verlangt dessen Benutzernamen als Bestätigung und eine Anmeldung in den letzten 10 Minuten: Das Eingegebene ist nicht der Benutzername des angemeldeten Kontos. Es wurde nichts gelöscht.',
    action:
      'Geben Sie Ihren Benutzernamen genau so ein, wie die Seite ihn zeigt, und löschen Sie erneut; oder verlassen Sie die Seite, um das Konto zu behalten.',
  },
  'email-change-address-not-accepted': {
    title: 'Diese E-Mail-Adresse kann nicht verwendet werden',
    summary:
      'Die auf der Kontoseite eingegebene neue Adresse ist keine Adresse (ein @, eine Domain mit Punkt, keine Leerzeichen, Anführungszeichen, spitzen Klammern, Kommas, Zeilenumbrüche oder anderen Steuerzeichen, höchstens 254 Zeichen, RFC 5321 §4.5.3.1.3). Die Adresse des Kontos hat sich nicht geändert und es wurde keine E-Mail gesendet.',
    action: 'Kehren Sie zur Kontoseite zurück und geben Sie die neue Adresse so ein, wie Sie an ihr E-Mails empfangen.',
  },
};
