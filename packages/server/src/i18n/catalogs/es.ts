import type { Catalog } from './catalog.js';

/** Spanish, formal address (usted), as identity products phrase their sign-in pages (catalog.ts). */
export const es: Catalog = {
  messages: {
    'layout.title': '{page} · {product}',
    'layout.product-title': '{product}',
    'layout.footer': 'Protegido por {product} · servidor de autorización OAuth 2.0',
    'layout.languages': 'Idioma',
    'error.details': 'Detalles, tal como se enviaron a la aplicación',
    'error.what-to-do': 'Qué hacer',
    'error.try-again': 'Volver a intentarlo',
    'error.fine-print': 'Error <code>{error}</code> · HTTP {status} · <link>Acerca de este error</link>',
    'error.not-found.title': 'Página no encontrada',
    'error.not-found.detail': 'No hay ninguna página en {path}.',
    'error.not-found.action':
      'Compruebe la dirección o vaya a la <link>página de inicio</link> para ver lo que ofrece este servidor.',
    'form-post.title': 'Volviendo a la aplicación',
    'form-post.no-script': 'Su navegador no ejecuta scripts aquí; continúe manualmente.',
    'form-post.continue': 'Continuar',
    'client.claim': 'Se hace llamar «{name}», un nombre que nadie ha comprobado',
    'client.links': 'Acerca de la aplicación',
    'client.link.home': 'Sitio web',
    'client.link.policy': 'Política de privacidad',
    'client.link.terms': 'Términos del servicio',
    'client.any': 'la aplicación',
    'common.signed-in-as': 'Sesión iniciada como <b>{username}</b>',
    'sign-in.title': 'Iniciar sesión',
    'sign-in.lead.account': 'en su cuenta',
    'sign-in.lead.client': 'para continuar a <app>{client}</app>',
    'sign-in.username': 'Nombre de usuario',
    'sign-in.password': 'Contraseña',
    'sign-in.submit': 'Iniciar sesión',
    'sign-in.next.consent': 'A continuación, elegirá qué puede hacer {client} con su cuenta.',
    'sign-in.next.account': 'Verá las aplicaciones que pueden usar su cuenta y cómo inicia sesión.',
    'sign-in.upstreams.title': 'O inicie sesión con su organización',
    'sign-in.upstreams.email': 'Correo electrónico del trabajo',
    'sign-in.upstreams.continue': 'Continuar',
    'sign-in.upstreams.provider': 'Iniciar sesión con {provider}',
    'sign-in.alert.check': 'Compruebe los datos y vuelva a intentarlo.',
    'sign-in.alert.passkey': 'Vuelva a intentarlo o use su contraseña.',
    'sign-in.alert.wait-seconds':
      'Vuelva a intentarlo dentro de {seconds, plural, one {# segundo} other {# segundos}}.',
    'sign-in.alert.wait-minutes': 'Vuelva a intentarlo dentro de {minutes, plural, one {# minuto} other {# minutos}}.',
    'passkey.or': 'o',
    'passkey.sign-in': 'Iniciar sesión con una llave de acceso',
    'passkey.confirm': 'Confirmar con una llave de acceso',
    'passkey.use': 'Usar una llave de acceso',
    'passkey.checking': 'Comprobando su llave de acceso…',
    'passkey.not-used': 'No se usó ninguna llave de acceso. Vuelva a intentarlo o use su contraseña.',
    'passkey.failed': 'La llave de acceso no funcionó aquí. Vuelva a cargar la página e inténtelo de nuevo.',
    'passkeys.title': 'Llaves de acceso',
    'passkeys.none':
      'Aún no tiene ninguna llave de acceso. Una llave de acceso le permite iniciar sesión sin contraseña, con su huella, su rostro, el bloqueo de pantalla o una llave de seguridad.',
    'passkeys.added': 'Añadida el {added}',
    'passkeys.not-used': 'Aún sin usar',
    'passkeys.last-used': 'Último uso {when}',
    'passkeys.synced': 'Sincronizada',
    'passkeys.rename-label': 'Nuevo nombre para {name}',
    'passkeys.rename': 'Cambiar nombre',
    'passkeys.remove': 'Eliminar llave de acceso',
    'passkeys.name-label': 'Nombre de la nueva llave de acceso (opcional)',
    'passkeys.name-placeholder': 'Portátil del trabajo',
    'passkeys.add': 'Añadir una llave de acceso',
    'factor.title': 'Verificación en dos pasos',
    'factor.other-ways': 'Otras formas de verificar',
    'factor.verify': 'Verificar',
    'factor.label.otp': 'Código de su aplicación de autenticación',
    'factor.label.recovery-code': 'Código de recuperación',
    'factor.label.passkey': 'Una llave de acceso',
    'factor.alert.replayed': 'Ese código ya se ha usado. Espere al siguiente.',
    'factor.alert.wrong-recovery-code': 'Ese código de recuperación es incorrecto o ya se ha usado.',
    'factor.alert.enrolment-refused': 'Vuelva a empezar desde la aplicación.',
    'factor.alert.check': 'Compruebe el código y vuelva a intentarlo.',
    'enrol.title': 'Configurar la verificación en dos pasos',
    'enrol.reason':
      'Para continuar a <app>{client}</app>, su inicio de sesión necesita un segundo paso: después de la contraseña, un código de una aplicación de su teléfono.',
    'enrol.scan':
      'Escanee este código con una aplicación de autenticación (como Google Authenticator, 1Password o Aegis) y escriba el código de seis dígitos que muestre.',
    'enrol.qr': 'Código QR para su aplicación de autenticación',
    'enrol.cannot-scan': '¿No puede escanearlo? Introduzca esta clave en la aplicación:',
    'enrol.code': 'Código de la aplicación',
    'enrol.submit': 'Activar la verificación en dos pasos',
    'enrol.not-now': 'Ahora no: volver a su cuenta',
    'recovery.title': 'Sus códigos de recuperación',
    'recovery.heading': 'Guarde sus códigos de recuperación',
    'recovery.lead':
      'Cada código le permite iniciar sesión una vez si pierde su aplicación de autenticación. Guárdelos en un lugar seguro: esta es la única vez que se muestran.',
    'recovery.continue': 'Ya los he guardado, continuar',
    'consent.title': '¿Permitir a {client}?',
    'consent.heading': '<app>{client}</app> quiere acceder a su cuenta',
    'consent.document-note':
      '<b>Ningún administrador ha añadido esta aplicación.</b> Se describe a sí misma desde <site>{host}</site>, lo único que {product} ha podido comprobar. Permítala solo si confía en ese sitio.',
    'consent.self-registered':
      '<b>Esta aplicación se ha registrado a sí misma.</b> Ningún administrador la añadió, así que su nombre no se ha comprobado: permítala solo si la ha iniciado usted.',
    'consent.no-access': '{client} solo quiere saber que ha iniciado sesión; no obtiene acceso a sus datos.',
    'consent.will-allow': 'Esto permitirá a {client}:',
    'consent.deny': 'Denegar',
    'consent.allow': 'Permitir',
    'consent.organization': 'Para la organización {organization}',
    'organizations.choose.title': 'Elija una organización',
    'organizations.choose.lead': '¿Para qué organización inicia sesión en {client}?',
    'consent.fine-print':
      'En ambos casos, volverá a <b>{destination}</b>. Puede retirar el acceso más adelante en la <account>página de su cuenta</account>.',
    'scope.openid': 'Iniciar su sesión con su cuenta',
    'scope.profile': 'Ver su nombre, su nombre de usuario y su idioma',
    'scope.email': 'Ver su dirección de correo electrónico y si está verificada',
    'scope.offline-access': 'Mantener el acceso mientras usted no está',
    'scope.read': 'Ver sus {things}',
    'scope.write': 'Crear, modificar y eliminar sus {things}',
    'device.title': 'Conectar un dispositivo',
    'device.lead': 'Introduzca el código que muestra su dispositivo.',
    'device.code': 'Código',
    'device.code-placeholder': 'XXXX-XXXX',
    'device.continue': 'Continuar',
    'device.fine-print': 'Introduzca solo el código de un dispositivo que esté configurando usted mismo.',
    'device.check-code': 'Compruebe que su dispositivo muestra <usercode>{userCode}</usercode>',
    'device.consent-fine-print':
      'Si los códigos no coinciden, o si no ha iniciado esto en un dispositivo, elija Denegar. Puede retirar el acceso más adelante en la <account>página de su cuenta</account>.',
    'device.connected.title': 'Dispositivo conectado',
    'device.connected.text': '{client} ya tiene acceso. Vuelva a su dispositivo: continuará por sí solo.',
    'device.denied.title': 'Acceso denegado',
    'device.denied.text': '{client} no ha obtenido acceso. Puede cerrar esta página.',
    'device.alert.check': 'Compruebe el código en su dispositivo y vuelva a escribirlo.',
    'logout.title': 'Cerrar sesión',
    'logout.heading': '¿Cerrar sesión en {product}?',
    'logout.not-signed-in': 'No ha iniciado sesión.',
    'logout.asked-by': '<app>{client}</app> ha pedido cerrar su sesión.',
    'logout.lead': 'La próxima vez que una aplicación le envíe aquí, volverá a iniciar sesión.',
    'logout.submit': 'Cerrar sesión',
    'logout.account': 'Su cuenta',
    'signed-out.title': 'Sesión cerrada',
    'signed-out.heading': 'Ha cerrado la sesión',
    'signed-out.lead': 'Puede cerrar esta ventana. Las aplicaciones que usa le pedirán que vuelva a iniciar sesión.',
    'account.title': 'Su cuenta',
    'account.apps.none': 'Ninguna aplicación tiene acceso a su cuenta.',
    'account.apps.title': 'Aplicaciones con acceso a su cuenta',
    'account.apps.dates': 'Permitida desde el {since} · Último uso {used}',
    'account.apps.remove': 'Retirar acceso',
    'account.fine-print':
      'Retirar el acceso cierra la sesión de la aplicación al instante: sus tokens dejan de funcionar.',
    'account.sign-out': 'Cerrar sesión',
    'account.linked.title': 'Proveedores de identidad con los que inicia sesión',
    'account.linked.since': 'Vinculado desde el {since}',
    'account.linked.unlink': 'Desvincular',
    'account.notice.access-removed': 'Acceso retirado: la aplicación ya no puede usar su cuenta.',
    'account.notice.access-removed-named':
      'Acceso retirado: {client} ya no puede usar su cuenta. Sus tokens han dejado de funcionar.',
    'account.notice.two-step-on':
      'La verificación en dos pasos está activada. Guarde sus códigos de recuperación en un lugar seguro.',
    'account.notice.two-step-off':
      'La aplicación de autenticación está desactivada y sus códigos de recuperación ya no funcionan.',
    'account.notice.recovery-codes': 'Tiene nuevos códigos de recuperación. Los anteriores ya no funcionan.',
    'account.notice.passkey-added': 'Llave de acceso añadida. Le permite iniciar sesión sin contraseña.',
    'account.notice.passkey-renamed': 'Llave de acceso renombrada.',
    'account.notice.passkey-removed': 'Llave de acceso eliminada. Ya no le permite iniciar sesión.',
    'account.notice.language': 'Su idioma se ha guardado.',
    'account.language.title': 'Idioma',
    'account.language.label': 'Idioma de estas páginas y de las aplicaciones que lo piden',
    'account.language.automatic': 'El que pida mi navegador',
    'account.language.save': 'Guardar idioma',
    'security.title': 'Cómo inicia sesión',
    'security.on-app':
      'La verificación en dos pasos está <b>activada</b>: códigos de su aplicación de autenticación, desde el {since}. {codes, plural, one {Queda # código de recuperación.} other {Quedan # códigos de recuperación.}}',
    'security.on-app-passkeys':
      'La verificación en dos pasos está <b>activada</b>: códigos de su aplicación de autenticación, desde el {since}, y {passkeys, plural, one {# llave de acceso} other {# llaves de acceso}}. {codes, plural, one {Queda # código de recuperación.} other {Quedan # códigos de recuperación.}}',
    'security.on-passkeys':
      'La verificación en dos pasos está <b>activada</b>: {passkeys, plural, one {# llave de acceso} other {# llaves de acceso}}.',
    'security.off': 'La verificación en dos pasos está <b>desactivada</b>.',
    'security.confirm':
      '<b>Confirme que es usted para hacer cambios.</b> Para configurar o desactivar la verificación en dos pasos, y para añadir, renombrar o eliminar una llave de acceso, hace falta haber iniciado sesión en {minutes, plural, one {el último minuto} other {los últimos # minutos}}.',
    'security.confirm-submit': 'Confirmar que soy yo',
    'security.add-app': 'Añadir una aplicación de autenticación',
    'security.set-up': 'Configurar la verificación en dos pasos',
    'security.new-codes': 'Nuevos códigos de recuperación',
    'security.turn-off': 'Desactivar',
    'link.title': 'Vincular su cuenta',
    'link.lead':
      'Una cuenta de aquí ya usa la dirección de correo que ha proporcionado <b>{provider}</b>. Si es suya, introduzca su contraseña para iniciar sesión con <b>{provider}</b> a partir de ahora.',
    'link.lead-passkey':
      'Una cuenta de aquí ya usa la dirección de correo que ha proporcionado <b>{provider}</b>. Si es suya, introduzca su contraseña o use una de sus llaves de acceso para iniciar sesión con <b>{provider}</b> a partir de ahora.',
    'link.password': 'Contraseña de esa cuenta',
    'link.submit': 'Vincular y continuar',
    'link.passkey': 'Usar una llave de acceso de esa cuenta',
    'link.fine-print':
      '¿No es su cuenta? Cierre esta ventana: no se vincula nada sin la contraseña o una llave de acceso de la cuenta.',
    'link.alert.wrong-password': 'Contraseña incorrecta',
    'link.alert.check': 'No se ha vinculado nada. Compruebe la contraseña y vuelva a intentarlo.',
    'link.alert.passkey': 'No se ha vinculado nada. Vuelva a probar la llave de acceso o la contraseña.',
    'continue.title': 'Sesión iniciada',
    'continue.lead': 'Volviendo a la aplicación…',
    'continue.button': 'Continuar',
    'landing.lead':
      'El servidor de autorización OAuth 2.0 y proveedor OpenID en <b>{issuer}</b>. Las aplicaciones le envían aquí para iniciar sesión y pedir acceso a su cuenta.',
    'landing.account': 'Su cuenta',
    'landing.account.what': 'las aplicaciones que ha permitido y el cierre de sesión',
    'landing.openid': 'Configuración del proveedor OpenID',
    'landing.openid.what': 'OpenID Connect Discovery 1.0',
    'landing.metadata': 'Metadatos del servidor de autorización',
    'landing.metadata.what': 'RFC 8414: endpoints, concesiones, scopes',
    'landing.jwks': 'Claves de firma',
    'landing.jwks.what': 'las claves públicas de sus tokens (JWKS)',
    'landing.api': 'API REST',
    'landing.api.what': 'el documento OpenAPI de {prefix}',
    'landing.fine-print': 'Desarrolladores: empiecen por los metadatos; cada error enlaza a una página que lo explica.',
    'problems.status': 'HTTP {status}',
    'problems.transient': 'transitorio: la misma solicitud puede funcionar más adelante',
    'problems.permanent': 'permanente: reintentar vuelve a fallar',
    'problems.wire-title': 'Su <code>title</code> en una respuesta: <wire>{title}</wire>',
    'problems.client-action': 'Qué debe hacer el cliente',
    'problems.reasons': 'La <code>error_description</code> de cada motivo',
    'problems.every-error': 'Todos los errores',
    'problems.home': 'Inicio',
    'problems.index.title': 'Errores',
    'problems.index.lead':
      'Cada error que responde este servidor, con lo que debe hacer el cliente. Un error de OAuth indica su página en <code>error_uri</code>; un problema (RFC 9457), en <code>type</code>.',
    'problems.index.oauth': 'Errores de OAuth 2.0, con sus motivos',
    'problems.index.problems': 'Problemas (<code>application/problem+json</code>)',
    'demo.served': 'Se muestra porque el servidor se ejecuta con <code>--demo</code>.',
    'demo.no-code.title': 'Sin código',
    'demo.no-code.heading': 'Ningún código de autorización',
    'demo.no-code.summary': 'La solicitud de autorización volvió sin un código que esta página pueda usar.',
    'demo.no-code.again': 'Vuelva a empezar con la URL de autorización que mostró <code>npm start</code>.',
    'demo.code.title': 'Código de autorización',
    'demo.code.heading': 'Código de autorización recibido',
    'demo.code.lead':
      'El servidor de autorización ha devuelto el navegador aquí, a la URI de redirección de la demostración.',
    'demo.code.exchange': 'Canjéelo en menos de {seconds, plural, one {# segundo} other {# segundos}}',
    'demo.code.verifier':
      'Indique el <code>code_verifier</code> de su solicitud de autorización (el que se mostró junto a la URL que abrió).',
    'demo.code.once': 'El código funciona una sola vez.',
    'demo.refused.title': 'Canje rechazado',
    'demo.refused.heading': 'Se ha rechazado el canje del código',
    'demo.refused.summary':
      'Esta página envió el código a /token para el cliente público de la demostración, que respondió:',
    'demo.refused.again': 'Vuelva a empezar con la URL de OpenID Connect que mostró <code>npm start</code>.',
    'demo.signed-in.title': 'Sesión iniciada',
    'demo.signed-in.heading': 'Sesión iniciada con OpenID Connect',
    'demo.signed-in.lead':
      'Esta página canjeó el código en /token, como cliente público de la demostración, y obtuvo un token de ID para el scope <code>{scope}</code>. Sus claims:',
    'demo.signed-in.nonce-ok': 'El nonce es el de la solicitud mostrada.',
    'demo.signed-in.nonce-wrong': 'El nonce NO es el de la solicitud mostrada.',
    'demo.signed-in.check':
      'Un cliente comprueba la firma del token con las claves de <link>/jwks</link> y sus claims (OIDC Core §3.1.3.7); esta página solo los muestra.',
    'demo.signed-in.userinfo': 'Consultar /userinfo con el token de acceso',
    'sign-in.forgot-password': '¿Ha olvidado su contraseña?',
    'reset.title': 'Restablecer la contraseña',
    'reset.lead':
      'Introduzca el nombre de usuario o la dirección de correo de su cuenta. Enviaremos a su dirección de correo un enlace para elegir una contraseña nueva.',
    'reset.identifier': 'Nombre de usuario o dirección de correo',
    'reset.submit': 'Enviar el enlace',
    'reset.back': 'Volver a iniciar sesión',
    'reset.sent.title': 'Revise su correo',
    'reset.sent.lead':
      'Si alguna cuenta coincide con lo que ha escrito y tiene dirección de correo, le hemos enviado un enlace para elegir una contraseña nueva. Funciona una sola vez, durante {minutes, plural, one {# minuto} other {# minutos}}.',
    'reset.sent.spam':
      '¿No ha llegado nada en unos minutos? Mire en la carpeta de correo no deseado, revise lo que escribió o consulte a su administrador.',
    'reset.new.title': 'Elija una contraseña nueva',
    'reset.new.lead': 'Para la cuenta {username}.',
    'reset.new.password': 'Contraseña nueva',
    'reset.new.hint':
      'Al menos {min} caracteres. Unas cuantas palabras sin relación forman una contraseña segura y fácil de recordar.',
    'reset.new.code-why': 'Su cuenta tiene la verificación en dos pasos: confirme que es usted.',
    'reset.new.code': 'Código de su aplicación de autenticación o un código de recuperación',
    'reset.new.submit': 'Guardar la contraseña nueva',
    'reset.done.title': 'Contraseña cambiada',
    'reset.done.lead':
      'Su contraseña nueva está guardada y se ha cerrado su sesión en todas partes. Vuelva a iniciar sesión con ella.',
    'reset.done.grants':
      'Las aplicaciones que tenían acceso a su cuenta lo han perdido: vuelva a permitírselo cuando lo pidan.',
    'reset.done.sign-in': 'Iniciar sesión',
    'reset.alert.too-short': 'Use al menos 8 caracteres.',
    'reset.alert.too-long': 'Use como máximo 1024 caracteres.',
    'reset.alert.too-common':
      'Esta contraseña es común, se ha filtrado o es fácil de adivinar a partir de su cuenta. Pruebe con unas cuantas palabras sin relación.',
    'mail.footer': 'Enviado por {product} desde {issuer}.',
    'mail.reset.subject': 'Restablezca su contraseña',
    'mail.reset.lead':
      'Alguien, probablemente usted, ha pedido restablecer la contraseña de su cuenta {username}. Para elegir una contraseña nueva, abra este enlace antes de {minutes, plural, one {# minuto} other {# minutos}}. Funciona una sola vez.',
    'mail.reset.action': 'Elegir una contraseña nueva',
    'mail.reset.ignore': 'Si no lo ha pedido usted, ignore este correo: su contraseña no cambia.',
    'account.email.title': 'Dirección de correo',
    'account.email.verified': '{email} · verificada',
    'account.email.unverified':
      '{email} · aún sin verificar. Verifíquela para que las aplicaciones puedan confiar en ella.',
    'account.email.send': 'Enviar un correo de verificación',
    'account.email.enter-code': 'Introducir el código del correo',
    'account.notice.verification-sent':
      'Le hemos enviado un correo de verificación. Su enlace y su código funcionan durante 24 horas.',
    'account.notice.verification-wait':
      'Se han pedido demasiados correos de verificación. Abra el más reciente o vuelva a intentarlo más tarde.',
    'account.notice.email-verified': 'Su dirección de correo está verificada.',
    'verify.title': 'Verifique su dirección de correo',
    'verify.lead': 'Confirme que {email} es la dirección de la cuenta {username}.',
    'verify.submit': 'Verificar mi dirección',
    'verify.code.title': 'Introduzca el código de verificación',
    'verify.code.lead': 'Escriba el código de seis cifras del último correo enviado a {email}.',
    'verify.code.label': 'Código de verificación',
    'verify.code.submit': 'Verificar',
    'verify.code.check': 'Revise el código del último correo y vuelva a intentarlo.',
    'verify.back': 'Volver a su cuenta',
    'verify.done.title': 'Dirección verificada',
    'verify.done.lead': '{email} está verificada. Las aplicaciones que autorice ya pueden confiar en ella.',
    'mail.verify.subject': 'Verifique su dirección de correo',
    'mail.verify.lead': 'Confirme que esta es la dirección de correo de su cuenta {username}.',
    'mail.verify.action': 'Verificar mi dirección',
    'mail.verify.code':
      'O escriba este código donde la página lo pida: {code}. El enlace y el código funcionan una vez, durante {hours} horas.',
    'mail.verify.ignore': 'Si no reconoce esta cuenta, ignore este correo.',
    'invite.title': 'Aceptar la invitación',
    'invite.lead':
      'Le han invitado a {where}, con la dirección {email}. Elija un nombre de usuario y una contraseña para su cuenta.',
    'invite.username': 'Nombre de usuario',
    'invite.username-hint': 'Hasta 64 caracteres: letras a–z, dígitos y . _ @ -, empezando por una letra o un dígito.',
    'invite.password': 'Contraseña',
    'invite.submit': 'Crear mi cuenta',
    'invite.alert.username-taken': 'Ese nombre de usuario está ocupado: elija otro.',
    'invite.done.title': 'Su cuenta está lista',
    'invite.done.lead':
      'La cuenta {username} está creada y su dirección verificada. Inicie sesión con su contraseña nueva.',
    'invite.member.lead': 'Le han invitado a {where}, con su cuenta {username}.',
    'invite.member.sign-in-first': 'Inicie sesión primero como {username} y vuelva a abrir el enlace del correo.',
    'invite.member.accept': 'Aceptar la invitación',
    'invite.joined.title': 'Invitación aceptada',
    'invite.joined.lead': 'Se ha unido a {where}.',
    'mail.invitation.subject': 'Le han invitado',
    'mail.invitation.lead':
      'Le han invitado a {where}. Elija un nombre de usuario y una contraseña para crear su cuenta; este enlace funciona durante {days, plural, one {# día} other {# días}}.',
    'mail.invitation.action': 'Aceptar la invitación',
    'mail.invitation.existing-lead':
      'Le han invitado a {where} con su cuenta {username}. Inicie sesión y acepte en {days, plural, one {# día} other {# días}}.',
    'mail.invitation.existing-action': 'Iniciar sesión y aceptar',
    'mail.invitation.ignore': 'Si no lo esperaba, ignore este correo: nada ocurre sin usted.',
    'account.data.title': 'Sus datos',
    'account.data.lead':
      'Todo lo que este servidor guarda sobre usted, en un archivo JSON: sus datos, cómo inicia sesión (sin secretos), las aplicaciones que permitió, sus sesiones, pertenencias y los eventos de auditoría sobre usted.',
    'account.data.download': 'Descargar mis datos',
    'account.delete.title': 'Eliminar mi cuenta',
    'account.delete.lead':
      'Esto elimina su cuenta para siempre: todas las aplicaciones pierden el acceso y se quitan su contraseña, llaves de acceso, segundos factores y sesiones. El registro de auditoría conserva sus entradas sin sus datos personales.',
    'account.delete.confirm': 'Escriba su nombre de usuario, {username}, para confirmar',
    'account.delete.submit': 'Eliminar mi cuenta para siempre',
    'account.delete.fresh':
      'Eliminar la cuenta requiere un inicio de sesión de los últimos 10 minutos: confirme primero arriba que es usted.',
    'account.deleted.title': 'Cuenta eliminada',
    'account.deleted.lead': 'Su cuenta y lo que contenía se eliminaron, y se cerró su sesión en todas partes.',
    'sign-in.sign-up': 'Crear una cuenta',
    'sign-up.title': 'Crear una cuenta',
    'sign-up.lead':
      'Enviamos un correo a su dirección para verificarla; después inicia sesión con ella y su contraseña.',
    'sign-up.domains': 'Solo direcciones de {domains}.',
    'sign-up.email': 'Dirección de correo electrónico',
    'sign-up.name': 'Nombre',
    'sign-up.submit': 'Crear la cuenta',
    'sign-up.alert.address': 'Escriba la dirección en la que recibe correo, como nombre@example.com.',
    'sign-up.alert.domain': 'Use una dirección de {domains}.',
    'sign-up.alert.name': 'Escriba un nombre de 128 caracteres como máximo, en una línea.',
    'sign-up.sent.lead':
      'Si ninguna cuenta tiene aún esta dirección, va de camino un correo con un enlace para verificarla: ábralo en {hours} horas para terminar. Si la dirección ya tiene una cuenta, se avisa a su titular.',
    'mail.sign-up-taken.subject': 'Alguien intentó registrarse con su dirección',
    'mail.sign-up-taken.lead':
      'Alguien pidió crear una cuenta con esta dirección de correo, que ya pertenece a su cuenta {username}. No se creó ninguna cuenta.',
    'mail.sign-up-taken.action': 'Restablecer su contraseña',
    'mail.sign-up-taken.ignore':
      'Si fue usted, inicie sesión con esa cuenta o elija una contraseña nueva con el enlace de arriba. Si no, ignore este correo: nada cambió.',
  },
  problems: {
    'organization-not-member': {
      title: 'No es miembro de esta organización',
      summary:
        'La aplicación pidió iniciar su sesión para una organización (su parámetro organization) que no existe en este servidor o de la que su cuenta no es miembro. No se concedió nada.',
      action:
        'Vuelva a la aplicación y elija una de sus organizaciones, o pida a un administrador de la organización que le añada.',
    },
    'organization-sign-in-method': {
      title: 'Su organización pide otra forma de iniciar sesión',
      summary:
        'Inició sesión de una forma que la organización que pidió la aplicación no permite (sus métodos de inicio de sesión: una contraseña, una llave de acceso o el proveedor de identidad de la organización). No se concedió nada.',
      action:
        'Cierre la sesión y vuelva a iniciarla de una de las formas que indican los detalles (por ejemplo con su llave de acceso o mediante el proveedor de identidad de su empresa), o consulte a un administrador de la organización.',
    },
    'password-reset-link-invalid': {
      title: 'Este enlace para restablecer la contraseña ya no funciona',
      summary:
        'El enlace para elegir una contraseña nueva ya se usó, tiene más de 30 minutos, quedó anulado por un restablecimiento posterior de la misma cuenta o no lo envió este servidor. Cada enlace funciona una vez. No se ha cambiado nada.',
      action:
        'Pida un enlace nuevo: elija «¿Ha olvidado su contraseña?» en la página de inicio de sesión y abra el correo más reciente.',
    },
    'too-many-password-resets': {
      title: 'Demasiadas solicitudes para restablecer la contraseña',
      summary:
        'Se han pedido correos para restablecer la contraseña demasiadas veces: para este nombre de usuario o dirección de correo (5 por hora de forma predeterminada) o desde esta dirección de red (20 por hora). No se ha enviado ningún correo para esta solicitud. Los operadores fijan los límites con RATE_LIMIT_PASSWORD_RESET_ACCOUNT y RATE_LIMIT_PASSWORD_RESET_ADDRESS.',
      action:
        'Espere el tiempo indicado en la cabecera Retry-After (se muestra en la página) y vuelva a pedirlo; mientras tanto, abra el correo más reciente ya enviado.',
    },
    'password-not-accepted': {
      title: 'Elija otra contraseña',
      summary:
        'La contraseña nueva se ha rechazado (NIST SP 800-63B §3.1.1.2): tiene menos de 8 caracteres o más de 1024, o es una de las contraseñas comunes, filtradas en brechas de datos o fáciles de adivinar a partir de ellas o de la propia cuenta (su nombre de usuario, dirección de correo o nombre). Ninguna regla exige dígitos, mayúsculas ni símbolos. No se ha cambiado nada.',
      action:
        'Elija una contraseña más larga que no sea una palabra ni una frase común, por ejemplo varias palabras sin relación; un gestor de contraseñas puede crearla.',
    },
    'login-failed': {
      title: 'Nombre de usuario o contraseña incorrectos',
      summary:
        'El nombre de usuario y la contraseña no coinciden con ninguna cuenta. Se da la misma respuesta para un nombre de usuario desconocido y para una contraseña incorrecta.',
      action:
        'Compruebe el nombre de usuario y la contraseña y vuelva a intentarlo. Tras 10 intentos fallidos en una hora para un nombre de usuario (o 100 desde una dirección), los siguientes se rechazan durante un tiempo.',
    },
    'too-many-login-attempts': {
      title: 'Demasiados intentos de inicio de sesión',
      summary:
        'Se rechazó el inicio de sesión antes de comprobar la contraseña: demasiados intentos fallidos para este nombre de usuario o desde esta dirección (por defecto 10 por hora por nombre de usuario y 100 por hora por dirección, y después uno más cada 6 minutos), o demasiados intentos de cualquier tipo desde esta dirección o para esta aplicación (60 y 600 por minuto). Los operadores fijan los límites con RATE_LIMIT_LOGIN_*.',
      action: 'Espere el tiempo indicado en la cabecera Retry-After (se muestra en la página) y vuelva a intentarlo.',
    },
    'passkey-sign-in-failed': {
      title: 'Esa llave de acceso no ha funcionado',
      summary:
        'No se aceptó la llave de acceso que ofreció el navegador: no está registrada aquí (o se eliminó), la página de inicio de sesión había caducado o ya se había usado (cada página pregunta una vez, durante 5 minutos), el navegador indicó otro sitio o ninguna verificación del usuario (un PIN, la huella o el rostro), o el contador de firmas del autenticador retrocedió, señal de una llave clonada. Cada rechazo queda registrado en la auditoría.',
      action:
        'Vuelva a intentarlo desde una página de inicio de sesión recién cargada o inicie sesión con su contraseña. Si la llave de acceso se eliminó de su cuenta, añádala de nuevo desde la página de la cuenta. Tras 10 intentos fallidos en una hora para una cuenta (o 100 desde una dirección), los siguientes se rechazan durante un tiempo.',
    },
    'second-factor-failed': {
      title: 'Ese código no ha funcionado',
      summary:
        'Se rechazó el segundo paso de un inicio de sesión: el código de la aplicación de autenticación es incorrecto, está a más de 30 segundos de la hora actual o ya se usó (cada código sirve una vez, RFC 6238 §5.2); el código de recuperación es incorrecto o ya se usó; o, al configurar la verificación en dos pasos, el código no corresponde a la clave mostrada. No se guardó nada. Los códigos incorrectos cuentan como contraseñas incorrectas: tras 10 fallos en una hora para un usuario (o 100 desde una dirección), los siguientes intentos se rechazan durante un tiempo.',
      action:
        'Escriba el código que muestra ahora la aplicación (o espere al siguiente si acaba de usarlo), o use uno de sus códigos de recuperación. Si ha perdido ambos, pida al operador que restablezca su segundo factor (gatehouse users reset-factors).',
    },
    'user-code-invalid': {
      title: 'Ese código no ha funcionado',
      summary:
        'El código escrito en la página del dispositivo no corresponde a ningún dispositivo en espera: mal escrito, caducado (los códigos duran 10 minutos) o ya aprobado o denegado. Las mayúsculas y los guiones no importan. Cada código incorrecto se cuenta y se registra (RFC 8628 §5.1).',
      action:
        'Compruebe el código que muestra el dispositivo y vuelva a escribirlo. Si el dispositivo ya no muestra ningún código, inicie de nuevo el inicio de sesión en él para obtener otro.',
    },
    'too-many-user-code-attempts': {
      title: 'Demasiados códigos incorrectos',
      summary:
        'La página del dispositivo rechazó el código antes de comprobarlo: demasiados códigos incorrectos desde esta dirección (por defecto 20 por hora) o demasiados intentos de cualquier tipo (60 por minuto). Así nadie puede adivinar los códigos de los dispositivos de otras personas (RFC 8628 §5.1). Los operadores fijan los límites con RATE_LIMIT_USER_CODE_*.',
      action: 'Espere el tiempo indicado en la cabecera Retry-After (se muestra en la página) y vuelva a intentarlo.',
    },
    'csrf-token-invalid': {
      title: 'Este formulario ha caducado',
      summary:
        'El formulario se envió sin su token de seguridad, con uno incorrecto o después de que terminara la sesión de inicio de sesión, así que puede no proceder de este sitio. No se cambió ni se concedió nada.',
      action:
        'Vuelva a la aplicación y empiece de nuevo a iniciar sesión. Si vuelve a ocurrir, permita las cookies para este sitio.',
    },
    'invalid-authorization-request': {
      title: 'Este enlace de inicio de sesión no es válido',
      summary:
        'La solicitud de autorización no indica ningún cliente o indica uno desconocido, o una redirect_uri que falta o no está registrada para el cliente. El servidor no puede saber adónde sería seguro devolverle, así que se detiene aquí en lugar de redirigir (RFC 6749 §4.1.2.1).',
      action:
        'Vuelva a la aplicación y avise a su desarrollador. Debe enviar un client_id registrado y exactamente una de sus URI de redirección registradas, carácter por carácter (gatehouse clients add --redirect-uri).',
    },
    'fresh-sign-in-required': {
      title: 'Vuelva a iniciar sesión para cambiar esto',
      summary:
        'Cualquier cambio en la forma de iniciar sesión (configurar o desactivar la verificación en dos pasos, nuevos códigos de recuperación, añadir, renombrar o eliminar una llave de acceso, desvincular un proveedor de identidad) requiere un inicio de sesión de los últimos 10 minutos, para que quien encuentre un navegador con la sesión iniciada no pueda añadir ni quitar una forma de entrar. No se cambió nada.',
      action:
        'Elija «Confirmar que soy yo» en la página de la cuenta (su contraseña o una llave de acceso) y después haga el cambio.',
    },
    'not-found': {
      title: 'No encontrado',
      summary: 'No hay ningún recurso en esta URL.',
      action: 'Compruebe la URL; los metadatos del servidor y el documento OpenAPI indican lo que existe.',
    },
  },
};
