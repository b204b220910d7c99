/**
 * The script of the pages that use passkeys (the sign-in form, the account page), served as
 * `/assets/passkey.js`: the pages' CSP forbids inline script, so it is a file of this server
 * (`script-src 'self'`), plain ES2017, no bundler, no dependency. It reads the options the server
 * rendered in `data-options` of the form `#passkey-form`, converts base64url to ArrayBuffer and back
 * (WebAuthn §5.1.8-5.1.10 JSON serialization, done by hand where `toJSON` is missing), calls
 * `navigator.credentials.create()` or `get()`, and posts the credential in the form's hidden
 * `credential` field. On the sign-in form it also starts a conditional request (autofill: the
 * username field is `autocomplete="username webauthn"`, §5.1.4.1), which the button replaces by a
 * modal one. What it says comes from the page, in its language (`data-checking`, `data-not-used`,
 * `data-failed` of `#passkey-status`, authorize/passkey-page.ts). A form whose fields are typed in
 * another form of the page names them in `data-copy` (ids, space-separated): each is copied into the
 * field of the same name before the form is posted (an invitation's username, for its passkey);
 * before a passkey is made, each such field and the form's own must be valid (the browser says
 * what is missing). `data-user` names the field whose value names the new passkey's user on the
 * authenticator (a sign-up's address). An element `#passkey-unavailable` (what a page that offers
 * passkeys only says to a browser without them) is hidden once the form is shown.
 */
export const PASSKEY_SCRIPT = `'use strict';
(function () {
  var form = document.getElementById('passkey-form');
  var button = document.getElementById('passkey-button');
  var status = document.getElementById('passkey-status');
  if (!form || !button || !window.PublicKeyCredential || !navigator.credentials) return;
  if (!window.isSecureContext) return;
  var mode = form.getAttribute('data-mode');
  var options = JSON.parse(form.getAttribute('data-options'));
  // A page reached under another name than the issuer's (an IP address, say) cannot use its passkeys.
  var rpId = mode === 'create' ? options.rp && options.rp.id : options.rpId;
  var host = location.hostname;
  if (rpId && host !== rpId && host.slice(-rpId.length - 1) !== '.' + rpId) return;

  function toBuffer(text) {
    var base64 = text.replace(/-/g, '+').replace(/_/g, '/');
    var binary = atob(base64 + '==='.slice((base64.length + 3) % 4));
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes.buffer;
  }
  function toText(buffer) {
    var bytes = new Uint8Array(buffer);
    var binary = '';
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  }
  function descriptors(list) {
    return (list || []).map(function (d) { return { type: d.type, id: toBuffer(d.id), transports: d.transports }; });
  }
  function creationOptions() {
    var o = Object.assign({}, options);
    o.challenge = toBuffer(options.challenge);
    o.user = Object.assign({}, options.user, { id: toBuffer(options.user.id) });
    var named = form.getAttribute('data-user');
    var who = named && document.getElementById(named);
    if (who && who.value) { o.user.name = who.value; o.user.displayName = who.value; }
    o.excludeCredentials = descriptors(options.excludeCredentials);
    return o;
  }
  function requestOptions() {
    var o = Object.assign({}, options);
    o.challenge = toBuffer(options.challenge);
    o.allowCredentials = descriptors(options.allowCredentials);
    return o;
  }
  function toJSON(credential) {
    var r = credential.response;
    var json = {
      id: credential.id,
      rawId: toText(credential.rawId),
      type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
      clientExtensionResults: credential.getClientExtensionResults(),
      response: { clientDataJSON: toText(r.clientDataJSON) }
    };
    if (r.attestationObject) {
      json.response.attestationObject = toText(r.attestationObject);
      json.response.transports = r.getTransports ? r.getTransports() : [];
    } else {
      json.response.authenticatorData = toText(r.authenticatorData);
      json.response.signature = toText(r.signature);
      if (r.userHandle) json.response.userHandle = toText(r.userHandle);
    }
    return json;
  }
  function say(text) { if (status) status.textContent = text; }
  function words(name) { return (status && status.getAttribute('data-' + name)) || ''; }
  function copied() {
    return (form.getAttribute('data-copy') || '').split(' ').map(function (id) {
      return id && document.getElementById(id);
    }).filter(Boolean);
  }
  function ready() {
    var fields = copied();
    for (var i = 0; i < fields.length; i++) if (!fields[i].reportValidity()) return false;
    return form.reportValidity();
  }
  function send(credential) {
    copied().forEach(function (from) {
      var to = form.elements.namedItem(from.name);
      if (to) to.value = from.value;
    });
    form.elements.namedItem('credential').value = JSON.stringify(toJSON(credential));
    say(words('checking'));
    form.submit();
  }
  function failed(error) {
    if (error && error.name === 'AbortError') return;
    say(words(error && error.name === 'NotAllowedError' ? 'not-used' : 'failed'));
    button.disabled = false;
  }

  var pending = null;
  function get(mediation) {
    if (pending) pending.abort();
    pending = new AbortController();
    var request = { publicKey: requestOptions(), signal: pending.signal };
    if (mediation) request.mediation = mediation;
    return navigator.credentials.get(request).then(function (credential) {
      if (credential) send(credential);
    });
  }

  form.hidden = false;
  var unavailable = document.getElementById('passkey-unavailable');
  if (unavailable) unavailable.hidden = true;
  button.addEventListener('click', function () {
    if (mode === 'create' && !ready()) return;
    button.disabled = true;
    say('');
    var ceremony = mode === 'create'
      ? navigator.credentials.create({ publicKey: creationOptions() }).then(send)
      : get(undefined);
    ceremony.catch(failed);
  });
  if (mode === 'get' && PublicKeyCredential.isConditionalMediationAvailable) {
    // The autofill offer fails silently: the button is still there to try (and to say why).
    PublicKeyCredential.isConditionalMediationAvailable().then(function (available) {
      if (available) return get('conditional');
    }).catch(function () {});
  }
})();
`;
