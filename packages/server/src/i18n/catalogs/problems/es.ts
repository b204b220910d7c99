import type { ProblemProseTable } from '../catalog.js';

/**
 * Spanish (usted) prose of every page of the error catalog, by slug: what a page says of the entry. Wire
 * values (parameter and field names, codes, headers, settings, the exact English `detail` texts) stay as
 * the wire has them.
 */
export const esProblems: ProblemProseTable = {
  'organization-not-member': {
    title: 'No es miembro de esta organización',
    summary:
      'La aplicación pidió iniciar su sesión para una organización (su parámetro organization) que no existe en este servidor o de la que su cuenta no es miembro. No se concedió nada.',
    action:
      'Vuelva a la aplicación y elija una de sus organizaciones, o pida a un administrador de la organización que le añada.',
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
  'invalid-request': {
    title: 'Solicitud no válida',
    summary:
      'A la solicitud le falta un parámetro obligatorio, repite un parámetro o su cuerpo no está codificado como formulario; en el endpoint de autorización, le falta un code_challenge PKCE con S256.',
    action: 'Corrija la solicitud como indica error_description; si la envía de nuevo sin cambios, volverá a fallar.',
  },
  'invalid-client': {
    title: 'Falló la autenticación del cliente',
    summary:
      'No se pudo autenticar al cliente: cliente desconocido (o, en el endpoint de autorización de dispositivos, una URL client_id cuyo documento de metadatos de ID de cliente no se pudo obtener, no es válido o no se acepta aquí), secreto incorrecto, sin credenciales, más de un método de autenticación o un método que el cliente no puede usar (un cliente de private_key_jwt o del perfil FAPI 2.0 envió un secreto; su aserción de cliente se firmó con un algoritmo distinto de PS256, ES256 o EdDSA).',
    action:
      'Es un error de configuración: compruebe el ID de cliente, el secreto y el método de autenticación. Conserve sus tokens; no vuelva a autenticar al usuario.',
  },
  'invalid-grant': {
    title: 'Concesión rechazada',
    summary:
      'El token de actualización o el código de autorización ha caducado, se ha revocado, superó su límite de rotación, se emitió para otro cliente o es desconocido. El rechazo es permanente.',
    action:
      'No reintente con el mismo token: volverá a fallar, ahora y más tarde. Descártelo y haga pasar al usuario de nuevo por el flujo de autorización completo para obtener una concesión nueva. Si lo desea, use la introspección del token para confirmar que se revocó.',
  },
  'unauthorized-client': {
    title: 'Tipo de concesión no permitido para este cliente',
    summary:
      'El cliente no está registrado para el tipo de concesión que usó o, en el endpoint de autorización, para el flujo de código de autorización.',
    action:
      'Es un error de configuración: pida al operador que permita ese tipo de concesión para el cliente, o use uno permitido.',
  },
  'unsupported-grant-type': {
    title: 'Tipo de concesión no admitido',
    summary:
      'El grant_type no es uno de los que admite este servidor (authorization_code, refresh_token, client_credentials, urn:ietf:params:oauth:grant-type:device_code).',
    action: 'Use un tipo de concesión admitido; los metadatos del servidor los enumeran en grant_types_supported.',
  },
  'invalid-scope': {
    title: 'Ámbito no válido',
    summary: 'El ámbito solicitado está mal formado o supera lo que permiten el cliente o la concesión.',
    action:
      'Solicite solo ámbitos para los que el cliente esté registrado; al actualizar, solo ámbitos de la concesión original.',
  },
  'unsupported-token-type': {
    title: 'Este tipo de token no se puede revocar',
    summary: 'Los tokens de acceso son JWT firmados de corta duración y no se revocan uno a uno.',
    action:
      'Revoque en su lugar el token de actualización: eso revoca toda la concesión, y la API rechaza los tokens de acceso de una concesión revocada.',
  },
  'invalid-redirect-uri': {
    title: 'URI de redirección no válido',
    summary:
      'Un registro de cliente (RFC 7591 §3.2.2) no indicó ningún URI de redirección para la concesión de código de autorización, o indicó uno que no es un URI https absoluto sin fragmento ni http simple sobre una IP literal de loopback (127.0.0.1 o [::1], RFC 8252 §7.3). No se registró ni cambió nada.',
    action:
      'Registre URI de redirección https o, para una aplicación nativa o un agente en este equipo, http://127.0.0.1/… o http://[::1]/… (en la autorización vale cualquier puerto).',
  },
  'invalid-client-metadata': {
    title: 'Metadatos de cliente no válidos',
    summary:
      'Un registro de cliente (RFC 7591 §2, §3.2.2) envió metadatos que el servidor no acepta: un campo de tipo incorrecto, grant_types y response_types que no concuerdan, un método de autenticación o un ámbito que el servidor no ofrece, un cliente confidencial sin token de acceso inicial, o el perfil fapi2 para un cliente que no podría cumplir FAPI 2.0. No se registró ni cambió nada.',
    action:
      'Corrija el campo que indica error_description y registre de nuevo; los metadatos del servidor enumeran los tipos de concesión, ámbitos y métodos de autenticación que ofrece.',
  },
  'invalid-target': {
    title: 'Recurso desconocido',
    summary:
      'La solicitud de autorización o de token indicó un recurso (RFC 8707 §2) que este servidor no sirve: ni su emisor ni su API REST ({issuer}/v2); o un intercambio de tokens (RFC 8693 §2.2.2) indicó una audiencia o un recurso que la política de intercambio de tokens del cliente no incluye. No se emitió ningún código ni token.',
    action:
      'Envíe tal cual el valor resource de los metadatos del recurso protegido (RFC 9728), o ningún recurso para un token para todo el servidor. Para un intercambio de tokens, pida al operador que añada el destino a las audiencias de intercambio de tokens del cliente.',
  },
  'access-denied': {
    title: 'Acceso denegado',
    summary:
      'El usuario rechazó la solicitud de autorización en la página de consentimiento. El servidor de autorización envía esto a la redirect_uri; no se emitió ningún código. Un dispositivo que consulta el endpoint de token lo recibe en cuanto el usuario rechazó su código de dispositivo en la página /device (RFC 8628 §3.5).',
    action:
      'Diga al usuario que la aplicación no recibió acceso y ofrézcale iniciar de nuevo el flujo de autorización cuando él lo decida. No reintente por su cuenta.',
  },
  'unsupported-response-type': {
    title: 'Tipo de respuesta no admitido',
    summary:
      'La solicitud de autorización pidió un response_type distinto de code. Solo se sirve el flujo de código de autorización con PKCE; el flujo implícito (token), no.',
    action:
      'Envíe response_type=code con un code_challenge PKCE con S256 y luego canjee el código en el endpoint de token.',
  },
  'server-error': {
    title: 'Error del servidor',
    summary: 'El servidor encontró una condición inesperada. Nada cambió en el token.',
    action: 'Reintente con espera exponencial; informe del problema al operador si persiste.',
  },
  'temporarily-unavailable': {
    title: 'No disponible temporalmente',
    summary:
      'El servidor está sobrecargado o su almacenamiento está ocupado (503), o el cliente o su dirección envió más solicitudes de las que permite su límite de frecuencia (429). Nada cambió en el token.',
    action:
      'Reintente después del tiempo de Retry-After (en segundos enteros), con espera exponencial. Ante un 429, envíe menos solicitudes: reutilice los tokens de acceso hasta que caduquen en lugar de actualizarlos antes, y guarde en caché brevemente las respuestas de introspección.',
  },
  'login-required': {
    title: 'Se requiere iniciar sesión',
    summary:
      'La solicitud de autenticación indicaba prompt=none, pero el usuario no ha iniciado sesión (o la inició hace más de lo que permite max_age). No se mostró ninguna página.',
    action:
      'Haga pasar al usuario de nuevo por la solicitud de autorización sin prompt=none, para que pueda iniciar sesión.',
  },
  'consent-required': {
    title: 'Se requiere consentimiento',
    summary:
      'La solicitud de autenticación indicaba prompt=none, pero el usuario no ha concedido a esta aplicación el ámbito solicitado. No se mostró ninguna página.',
    action:
      'Haga pasar al usuario de nuevo por la solicitud de autorización sin prompt=none, para que pueda dar su consentimiento.',
  },
  'interaction-required': {
    title: 'Se requiere interacción',
    summary:
      'La solicitud de autenticación indicaba prompt=none, pero necesita que el usuario actúe: su id_token_hint indica un usuario distinto del que ha iniciado sesión, que tendría que cambiar de cuenta. No se mostró ninguna página.',
    action: 'Haga pasar al usuario de nuevo por la solicitud de autorización sin prompt=none.',
  },
  'bearer-invalid-token': {
    title: 'Token de acceso no válido',
    summary:
      'El endpoint userinfo no recibió ningún token de acceso, o recibió uno caducado, no firmado por este servidor, emitido por otro emisor o para otra audiencia (un token creado con otro ISSUER), o cuya concesión se revocó; o un endpoint de registro de clientes (RFC 7591 §3, RFC 7592 §3) no recibió ningún token de acceso inicial o de registro válido.',
    action:
      'Actualice el token de acceso (o vuelva a iniciar la sesión del usuario) y reintente con el nuevo. En los endpoints de registro: pida al operador un nuevo token de acceso inicial, o registre el cliente de nuevo.',
  },
  'bearer-insufficient-scope': {
    title: 'Ámbito insuficiente',
    summary: 'Al token de acceso no se le concedió el ámbito openid, que exige el endpoint userinfo.',
    action: 'Solicite el ámbito openid en la solicitud de autorización.',
  },
  'authorization-pending': {
    title: 'Autorización pendiente',
    summary:
      'El código de dispositivo es válido, pero el usuario aún no ha introducido el código de usuario ni ha aprobado o rechazado la solicitud en la página /device (RFC 8628 §3.5).',
    action:
      'Siga consultando el endpoint de token con el mismo device_code, esperando el intervalo (5 segundos, salvo que la respuesta de autorización de dispositivo indicara otro) entre solicitudes.',
  },
  'slow-down': {
    title: 'Consultas demasiado rápidas',
    summary:
      'El dispositivo consultó el endpoint de token antes de lo que permite el intervalo. La autorización sigue pendiente, y el intervalo de este código de dispositivo es ahora 5 segundos más largo (RFC 8628 §3.5).',
    action:
      'Sume 5 segundos al intervalo de consulta para esta y todas las solicitudes posteriores de este código de dispositivo, y siga consultando.',
  },
  'expired-token': {
    title: 'Código de dispositivo caducado',
    summary:
      'El código de dispositivo caducó (10 minutos después de emitirse) antes de ser aprobado y canjeado; la sesión de autorización del dispositivo ha terminado (RFC 8628 §3.5).',
    action:
      'Deje de consultar. Empiece de nuevo con una nueva solicitud de autorización de dispositivo y muestre al usuario el nuevo código de usuario.',
  },
  'invalid-request-object-error': {
    title: 'Objeto de solicitud no válido',
    summary:
      'El parámetro request no es un objeto de solicitud que el servidor acepte (RFC 9101 §7): no es un JWT firmado por una de las claves registradas del cliente con un algoritmo asimétrico, o su iss no es el client_id, su aud no es el emisor, su exp falta o ya pasó, su nbf está en el futuro, o indica otro cliente.',
    action:
      'Firme el objeto de solicitud con una clave de jwks o jwks_uri del cliente, con iss igual al client_id, aud igual al identificador del emisor y exp unos minutos en el futuro, y envíelo de nuevo.',
  },
  'token-invalid-dpop-proof': {
    title: 'Prueba DPoP no válida',
    summary:
      'La solicitud de token, o la solicitud de autorización enviada por PAR (RFC 9449 §10.1), llevaba una cabecera DPoP (RFC 9449 §4) que no es una única prueba válida: no es un JWS compacto con typ dpop+jwt, usa un algoritmo fuera de dpop_signing_alg_values_supported, un jwk privado o mal formado, una firma incorrecta, htm o htu que no corresponden a esta solicitud, un iat fuera de la ventana o un jti ya usado; o el cliente está registrado con dpop_bound_access_tokens o el perfil FAPI 2.0 (profile fapi2) y no envió ninguna prueba al endpoint de token.',
    action:
      'Envíe exactamente una cabecera DPoP con una prueba nueva para esta solicitud (htm POST, htu el endpoint llamado, de token o de PAR, sin query, un jti nuevo, la hora actual como iat), firmada con un algoritmo que el servidor anuncie.',
  },
  'token-use-dpop-nonce': {
    title: 'Se requiere un nonce DPoP',
    summary:
      'El servidor exige en las pruebas DPoP un nonce proporcionado por el servidor (RFC 9449 §8) y la prueba no tenía ninguno, o tenía uno que ya no es vigente. La respuesta lleva el nonce que debe usarse en su cabecera DPoP-Nonce.',
    action:
      'Cree una prueba nueva cuyo claim nonce sea la cabecera DPoP-Nonce de esta respuesta y envíe de nuevo la solicitud.',
  },
  'missing-required-field': {
    title: 'Falta un campo obligatorio',
    summary:
      'Falta un campo obligatorio en el cuerpo JSON, o vale null donde su esquema no admite null. El detail dice exactamente: Missing required field \'<field_name>\' in request body. Cada campo que falta se enumera en errors. Null es un valor, y no un campo que falta, solo donde el esquema lo permite explícitamente: nullable: true en OpenAPI 3.0, un tipo que incluye "null" en OpenAPI 3.1.',
    action:
      'Añada el campo con un valor válido y envíe de nuevo. Valide los cuerpos con el esquema (GET /v2/openapi.json) antes de enviarlos. Cambiar POST por PUT no evita la validación.',
  },
  'invalid-field-value': {
    title: 'Valor de campo no válido',
    summary:
      'Un campo está presente pero su valor no es aceptable: un valor vacío o con formato incorrecto, un tipo erróneo, un campo que el esquema rechaza (additionalProperties: false), o un campo de solo lectura como id enviado con un valor distinto del propio registro (o enviado en absoluto al crear).',
    action: 'Envíe un valor con el formato correcto para cada campo enumerado en errors.',
  },
  'malformed-json': {
    title: 'JSON mal formado',
    summary:
      'El cuerpo de la solicitud no es JSON válido en UTF-8, anida arrays y objetos en más de 64 niveles, o está vacío donde se requiere un cuerpo.',
    action: 'Envíe un documento JSON bien formado.',
  },
  'invalid-parameter': {
    title: 'Parámetro de consulta no válido',
    summary:
      'Un parámetro de consulta tiene un valor que el endpoint no acepta, como un tamaño de página fuera de rango o un cursor que no entregó.',
    action: 'Envíe el parámetro como indica el detail, u omítalo.',
  },
  'unsupported-media-type': {
    title: 'Tipo de medio no admitido',
    summary:
      'El cuerpo de la solicitud tiene un Content-Type que este endpoint no acepta, o un Content-Encoding (como gzip): los cuerpos solo se leen tal como se envían (esa respuesta lleva Accept-Encoding: identity).',
    action:
      'Envíe Content-Type: application/json (application/merge-patch+json para PATCH), y el cuerpo sin Content-Encoding.',
  },
  'payload-too-large': {
    title: 'Cuerpo demasiado grande',
    summary: 'El cuerpo de la solicitud es más grande de lo que acepta el servidor.',
    action: 'Envíe un cuerpo más pequeño.',
  },
  'invalid-token': {
    title: 'Token de acceso no válido',
    summary:
      "El token de acceso bearer falta, está mal formado, ha caducado, está firmado por una clave desconocida o pertenece a una concesión revocada; o las claves de este servidor lo firmaron para otro emisor u otra audiencia (creado con otro ISSUER), y entonces el detail dice: The access token was issued by '<iss>', not by this server ('<issuer>'). o The access token is for the audience '<aud>', not for this server ('<issuer>').",
    action:
      'Actualice el token de acceso; si la actualización se rechaza con invalid_grant, vuelva a ejecutar el flujo de autorización.',
  },
  'insufficient-scope': {
    title: 'Ámbito insuficiente',
    summary:
      "El token de acceso es válido, pero le falta el ámbito que necesita esta operación; el detail dice: This operation needs the scope '<scope>'. (o '<scope>' or '<scope>'. cuando bastan varias alternativas).",
    action: 'Obtenga un token con el ámbito indicado en la cabecera WWW-Authenticate.',
  },
  'insufficient-role': {
    title: 'Rol insuficiente',
    summary:
      "El token de acceso es válido, pero a su titular le falta un rol que necesita esta operación (RFC 9068 §2.2.3.1 `roles`, como la operación declara en `x-required-roles`); el detail dice: This operation needs the role '<role>'. (o '<role>' or '<role>'. cuando bastan varios). En la API de administración: el token de un usuario es para la audiencia '{issuer}/admin/v1' y su usuario tiene admin, user-manager o auditor, según permita la operación.",
    action:
      'Pida el rol a un operador (gatehouse roles assign) y luego actualice el token de acceso: los roles cambian con el siguiente token.',
  },
  'step-up-required': {
    title: 'Inicie sesión de nuevo para esta operación',
    summary:
      'Una operación peligrosa de la API de administración (eliminar un cliente, usuario, proveedor externo, organización, grupo o rol, un nuevo secreto de cliente, rotar o retirar una clave de firma; el documento marca cada una con x-step-up-max-age) se llamó con el token de acceso de un usuario cuyo inicio de sesión (su auth_time, RFC 9068 §2.2.1) tiene más de 300 segundos, o que no dice cuándo inició sesión su usuario. El desafío WWW-Authenticate dice error="insufficient_user_authentication" con max_age="300" (RFC 9470 §3). El token propio de un cliente de administración (client_credentials) no tiene inicio de sesión y no se le pide. No se cambió nada.',
    action:
      'Envíe al usuario de nuevo por el endpoint de autorización con max_age=300 y prompt=login (OpenID Connect Core §3.1.2.1) y repita la operación con el nuevo token de acceso.',
  },
  'invalid-dpop-proof': {
    title: 'Prueba DPoP no válida',
    summary:
      'El token de acceso está vinculado a DPoP (RFC 9449) y su prueba falta o se rechaza: la cabecera DPoP no es un único JWS compacto con typ dpop+jwt firmado con un algoritmo aceptado por la clave pública que lleva, o su htm, htu, iat, ath o jti no corresponde a esta solicitud (una prueba ya usada se rechaza), o está firmada por una clave distinta de aquella a la que está vinculado el token. El desafío DPoP de WWW-Authenticate enumera los algoritmos aceptados.',
    action:
      'Envíe Authorization: DPoP <token> con una prueba nueva para esta solicitud (htm, htu sin query, un jti nuevo, el ath del token) firmada por la clave a la que está vinculado el token.',
  },
  'use-dpop-nonce': {
    title: 'Se requiere un nonce DPoP',
    summary:
      'A la prueba DPoP le falta el nonce que proporciona este servidor, o lleva uno que ya no acepta (RFC 9449 §9). La respuesta lleva el nonce vigente en su cabecera DPoP-Nonce.',
    action: 'Cree una prueba nueva cuyo claim nonce sea la cabecera DPoP-Nonce de esta respuesta y reintente una vez.',
  },
  'owner-required': {
    title: 'Se requiere un usuario',
    summary:
      'Los registros de la colección pertenecen a los usuarios que los crearon (x-gatehouse-ownership: owner en el documento OpenAPI), y el token de acceso no actúa en nombre de ningún usuario: se emitió para el propio cliente (la concesión client_credentials). x-gatehouse-client-access en el documento indica qué puede hacer allí un token así: none (lo predeterminado para registros con propietario), read o read-write.',
    action:
      'Llame a la API con un token de acceso que haya concedido un usuario (flujo de código de autorización o de dispositivo); un servicio que deba alcanzar los registros de todos los usuarios pide al operador que declare x-gatehouse-client-access para la colección.',
  },
  'method-not-allowed': {
    title: 'Método no permitido',
    summary: 'El recurso existe, pero no admite este método HTTP.',
    action: 'Use uno de los métodos que enumera la cabecera Allow.',
  },
  'precondition-failed': {
    title: 'Falló la condición previa',
    summary: 'If-Match indica una versión del registro que ya no es la vigente.',
    action: 'Obtenga de nuevo el registro, vuelva a aplicar su cambio y envíelo con el nuevo ETag.',
  },
  'invalid-operator-input': {
    title: 'Entrada del operador no válida',
    summary:
      'Una solicitud administrativa indica algo que no existe, que ya existe o que infringe una regla del servidor (por ejemplo, un ámbito más amplio del que puede usar el cliente). El detail indica cuál.',
    action: 'Corrija la solicitud como indica el detail y envíela de nuevo; la misma solicitud volverá a rechazarse.',
  },
  conflict: {
    title: 'Ya existe',
    summary:
      'Una solicitud administrativa crea algo cuyo identificador ya está en uso: un ID de cliente o un nombre de usuario que ya existe. No se escribió nada.',
    action:
      'Elija otro identificador, o modifique el existente (PUT) en lugar de crearlo; la misma solicitud volverá a rechazarse.',
  },
  'invalid-email-address': {
    title: 'Esta dirección de correo no puede recibir mensajes',
    summary:
      'La dirección de correo no es una sola dirección de la forma nombre@dominio: está vacía, supera los 254 caracteres (RFC 5321 §4.5.3.1.3) o tiene una parte de nombre de más de 64, contiene un nombre visible, un grupo, varias direcciones, comillas, espacios, un salto de línea u otro carácter de control (un salto de línea podría añadir una cabecera al mensaje), o su dominio no es un nombre de host válido. No se puso nada en cola ni se envió ningún correo.',
    action: 'Corrija la dirección (por ejemplo alice@example.com) y envíela de nuevo.',
  },
  'invalid-email-message': {
    title: 'No se pudo poner en cola este correo',
    summary:
      'Un mensaje entregado a la bandeja de salida infringe una regla del correo: su línea de asunto contiene un salto de línea u otro carácter de control (que podría añadir una cabecera al mensaje) o supera los 998 caracteres (RFC 5322 §2.1.1), un cuerpo está vacío, o su tipo o idioma está mal formado. No se puso nada en cola ni se envió ningún correo; el detail indica qué parte.',
    action:
      'Es un fallo del servidor o del texto que recibió (por ejemplo, un nombre con un salto de línea mostrado en el asunto); corrija ese texto e inténtelo de nuevo, o avise al operador.',
  },
  'email-verification-link-invalid': {
    title: 'Este enlace de verificación ya no funciona',
    summary:
      'El enlace para verificar una dirección de correo ya se usó, tiene más de 24 horas, quedó anulado por un correo de verificación más reciente, la cuenta tiene otra dirección desde entonces, o no es un enlace que haya enviado este servidor. Cada enlace funciona una vez. No se cambió nada.',
    action:
      'Inicie sesión y abra la página de su cuenta: indica si la dirección está verificada y envía un correo nuevo si no lo está.',
  },
  'verification-code-invalid': {
    title: 'Ese código de verificación no funcionó',
    summary:
      'El código de seis dígitos no es el del correo de verificación más reciente, ya se usó o tiene más de 24 horas. Tras 10 códigos erróneos en una hora para una cuenta, no se comprueba ningún código durante un tiempo (429, con Retry-After). No se cambió nada.',
    action:
      'Escriba el código del correo más reciente, o abra su enlace; o pida un correo nuevo desde la página de su cuenta.',
  },
  'email-address-missing': {
    title: 'Esta cuenta no tiene ninguna dirección de correo que verificar',
    summary:
      'El servidor exige una dirección de correo verificada antes de completar un inicio de sesión (EMAIL_VERIFICATION=required), y esta cuenta no tiene ninguna dirección, así que no se puede enviar ningún código. La contraseña era correcta; el inicio de sesión se detiene aquí y no se cambió nada.',
    action:
      'Pida a un administrador que añada una dirección de correo a la cuenta (gatehouse users update NOMBRE --email DIRECCIÓN, o la API de administración) y vuelva a iniciar sesión.',
  },
  'upstream-unavailable': {
    title: 'Su proveedor de identidad no responde',
    summary:
      'El inicio de sesión pasa por un proveedor de identidad en el que Gatehouse confía (federación), y no respondió a tiempo, respondió con un error del servidor, o no se pudo leer su documento de descubrimiento. No se inició ninguna sesión ni se cambió nada.',
    action:
      'Espere un momento y elija «Volver a intentarlo». Si sigue fallando, el proveedor de identidad está caído o no es accesible desde Gatehouse: avise al operador, o inicie sesión de otra forma.',
  },
  'upstream-misconfigured': {
    title: 'El inicio de sesión con este proveedor de identidad no está bien configurado',
    summary:
      'Gatehouse se negó a enviar una solicitud al proveedor de identidad, así que nunca se le consultó: su configuración infringe una regla propia de Gatehouse (el detail la indica), como http simple hacia un host que no es loopback. No se inició ninguna sesión. No consta que el proveedor esté caído.',
    action:
      'Inicie sesión de otra forma y comunique el detail al operador. Operador: corrija la entrada del proveedor (docs/federation.md, Configuring upstreams) y aplíquela de nuevo.',
  },
  'upstream-access-denied': {
    title: 'Su proveedor de identidad rechazó el inicio de sesión',
    summary:
      'El proveedor de identidad respondió access_denied (RFC 6749 §4.1.2.1): usted canceló, o no permite que su cuenta use esta aplicación. No se inició ninguna sesión.',
    action: 'Vuelva a iniciar sesión desde la aplicación, o pida acceso al administrador de su proveedor de identidad.',
  },
  'upstream-login-required': {
    title: 'Su proveedor de identidad necesita que inicie sesión',
    summary:
      'El proveedor de identidad respondió login_required, interaction_required o consent_required (OIDC Core §3.1.2.6): no podía iniciar su sesión sin mostrarle una página. No se inició ninguna sesión.',
    action:
      'Vuelva a iniciar sesión desde la aplicación; el proveedor de identidad mostrará su página de inicio de sesión.',
  },
  'upstream-sign-in-failed': {
    title: 'Su proveedor de identidad no pudo iniciar su sesión',
    summary:
      'El proveedor de identidad devolvió el navegador con un error distinto de access_denied o login_required (RFC 6749 §4.1.2.1; el detail lo indica), o se abrió un enlace con un error así. No se inició ninguna sesión.',
    action:
      'Vuelva a iniciar sesión desde la aplicación. Si sigue ocurriendo, comunique al operador el error del detail: puede que el proveedor rechace lo que Gatehouse le pide (un ámbito, el cliente).',
  },
  'upstream-code-refused': {
    title: 'No se pudo completar este inicio de sesión',
    summary:
      'El proveedor de identidad rechazó el código que trajo este navegador (invalid_grant o invalid_request, RFC 6749 §5.2): ya se usó, caducó o se emitió para otro inicio de sesión, por ejemplo un enlace abierto en otro navegador. Se rechazó y se registró; no se inició ninguna sesión.',
    action:
      'Vuelva a iniciar sesión desde la aplicación, en este navegador, y termine allí; un enlace de inicio de sesión no se puede abrir dos veces ni en otro navegador.',
  },
  'upstream-error': {
    title: 'Su proveedor de identidad respondió con un error',
    summary:
      'El proveedor de identidad respondió a Gatehouse algo que no puede usar: un error OAuth en su endpoint de token o de userinfo que no se refiere al código (invalid_client, unauthorized_client: el detail lo indica), un documento de descubrimiento que indica otro emisor, o una respuesta que no sigue el protocolo. No se inició ninguna sesión.',
    action:
      'Inicie sesión de otra forma y comunique el detail al operador: hay que corregir el registro de Gatehouse en el proveedor, o el propio proveedor.',
  },
  'upstream-token-invalid': {
    title: 'Se rechazó la respuesta del proveedor de identidad',
    summary:
      'El token de ID o la respuesta de retorno del proveedor de identidad no superó la validación (OIDC Core §3.1.3.7, RFC 9207): sin firma (alg none) o mal firmado, emitido por otro emisor, para otra audiencia, caducado, con un nonce incorrecto, o un retorno que indica otro emisor. Se rechazó y se registró en el registro de auditoría; no se inició ninguna sesión.',
    action:
      'Vuelva a iniciar sesión desde la aplicación. Si sigue ocurriendo, avise al operador: puede que la respuesta se haya manipulado.',
  },
  'federation-state-invalid': {
    title: 'Este inicio de sesión caducó o ya se usó',
    summary:
      'La respuesta del proveedor de identidad llevaba un state que Gatehouse no envió a este navegador, envió hace más de diez minutos, o que ya se usó (RFC 6749 §10.12, RFC 9700 §4.7). Puede ser un enlace falsificado o reutilizado. Se rechazó y se registró; no se inició ninguna sesión.',
    action: 'Vuelva a la aplicación e inicie sesión de nuevo, en el mismo navegador.',
  },
  'federation-no-provider': {
    title: 'No hay proveedor de identidad para esa dirección',
    summary:
      'La dirección de correo escrita pertenece a un dominio que no atiende ningún proveedor de identidad de este servidor, o el proveedor elegido ya no está configurado.',
    action: 'Compruebe la dirección, o inicie sesión con su nombre de usuario y contraseña.',
  },
  'federation-no-account': {
    title: 'No hay ninguna cuenta para este inicio de sesión',
    summary:
      'El proveedor de identidad inició su sesión, pero ninguna cuenta local está vinculada a esa identidad y el operador no permite que este proveedor cree cuentas en el primer inicio de sesión.',
    action:
      'Pida al operador que cree su cuenta, o inicie sesión con su nombre de usuario y contraseña y vincule el proveedor desde allí.',
  },
  'federation-unlink-refused': {
    title: 'Es su única forma de iniciar sesión',
    summary:
      'Desvincular este proveedor de identidad dejaría la cuenta sin forma de iniciar sesión: no tiene contraseña ni otro proveedor vinculado. No se cambió nada.',
    action: 'Pida primero al operador que establezca una contraseña para su cuenta y luego desvincule el proveedor.',
  },
  'organization-domain-public': {
    title: 'Dominio de correo público',
    summary:
      'Una solicitud administrativa asigna a una organización el dominio de correo de un proveedor público (gmail.com, outlook.com, yahoo.com y similares) o de direcciones desechables. Cualquiera puede tener una dirección allí, así que ese dominio no dice nada de quién trabaja para la organización: convertiría a desconocidos en miembros al iniciar sesión. No se escribió nada.',
    action:
      'Asigne a la organización un dominio que le pertenezca (el de su empresa). Los miembros con direcciones de un proveedor público se añaden uno a uno (gatehouse orgs members add).',
  },
  'internal-error': {
    title: 'Error interno del servidor',
    summary: 'El servidor encontró una condición inesperada; no se escribió nada.',
    action: 'Reintente con espera exponencial; informe del problema al operador si persiste.',
  },
  'service-unavailable': {
    title: 'Servicio no disponible',
    summary: 'El servidor está sobrecargado o su almacenamiento está ocupado; no se escribió nada.',
    action: 'Reintente después del tiempo de Retry-After, con espera exponencial.',
  },
  'not-ready': {
    title: 'No está listo',
    summary:
      'La sonda de disponibilidad (GET /health/ready) encontró que el servidor no puede atender: su almacenamiento no respondió dentro del plazo de la sonda, a la base de datos le faltan migraciones que necesita esta versión, o no se pudo cargar ninguna clave de firma. El detail indica cuál. El proceso en sí sigue vivo (GET /health/live).',
    action:
      'Balanceadores de carga: envíen las solicitudes a otra instancia hasta que esta vuelva a responder 200. Operadores: inicien o hagan accesible la base de datos, ejecuten gatehouse migrate o gatehouse keys rotate --now, según indique el detail.',
  },
  'client-metadata-document-unavailable': {
    title: 'No se pudo obtener la descripción de esta aplicación',
    summary:
      'El client_id es la URL https de un documento de metadatos de ID de cliente (draft-ietf-oauth-client-id-metadata-document), y el servidor no pudo obtenerlo de forma segura: su host se resuelve a una dirección privada, de loopback, de enlace local o no pública por otro motivo, o la URL respondió con una redirección (nunca se sigue), un estado de error, un documento que supera el límite de tamaño, o nada dentro del tiempo límite. El detail indica cuál. No se inició ninguna sesión ni se concedió nada.',
    action:
      'Vuelva a la aplicación y avise a su desarrollador. Este debe servir el documento exactamente en la URL client_id, por https desde una dirección pública, con estado 200, sin redirección y pequeño (unos pocos kilobytes). Los operadores de una instalación privada pueden permitir direcciones con CLIENT_ID_METADATA_ALLOW_ADDRESSES (docs/agents.md).',
  },
  'client-metadata-document-invalid': {
    title: 'La descripción de esta aplicación no es válida',
    summary:
      'Se obtuvo el documento de metadatos de ID de cliente, pero no puede describir a este cliente: no es un objeto JSON, su client_id no es exactamente la URL de la que se obtuvo, pide un secreto compartido (client_secret_basic, client_secret_post o un campo client_secret), private_key_jwt sin sus claves, concesiones distintas de authorization_code, la concesión de código de dispositivo y refresh_token (y al menos una de las dos primeras), o URI de redirección que no podrían registrarse (https, o http sobre una IP literal de loopback). El detail indica cuál.',
    action:
      'Vuelva a la aplicación y avise a su desarrollador: el documento debe seguir draft-ietf-oauth-client-id-metadata-document §4 y las reglas de URI de redirección de los clientes registrados (docs/agents.md).',
  },
  'client-metadata-document-not-allowed': {
    title: 'Esta aplicación no está permitida aquí',
    summary:
      'El client_id es la URL de un documento de metadatos de ID de cliente en un host que el operador de este servidor no acepta (CLIENT_ID_METADATA_DOCUMENTS=allowlist sin el host en CLIENT_ID_METADATA_ALLOW_HOSTS, o el host en CLIENT_ID_METADATA_DENY_HOSTS), o no es una URL que pueda tener un documento así (https, una ruta, sin fragmento, credenciales ni segmentos de punto). No se obtuvo nada.',
    action:
      'Pida al operador del servidor que permita el host de la aplicación, o use un cliente registrado en el servidor (gatehouse clients add, o /register).',
  },
  'invalid-request-uri': {
    title: 'Este enlace de inicio de sesión caducó o ya se usó',
    summary:
      'La solicitud de autorización indica una request_uri desconocida, caducada (una solicitud enviada por PAR dura alrededor de un minuto), ya usada una vez o enviada por un cliente distinto del que indica su client_id, o una request_uri de un tipo que este servidor no obtiene (RFC 9126 §4, RFC 9101 §6.2). Sin la solicitud enviada por PAR, el servidor no puede saber adónde sería seguro devolverle.',
    action:
      'Vuelva a la aplicación y empiece de nuevo. El desarrollador debe enviar la solicitud de autorización por PAR (POST /par) justo antes de llevar el navegador a /authorize con el client_id y la request_uri que recibió, una sola vez.',
  },
  'invalid-request-object': {
    title: 'Este enlace de inicio de sesión no está firmado correctamente',
    summary:
      'La solicitud de autorización lleva un objeto de solicitud (el parámetro request, RFC 9101) que no es un JWT firmado por una de las claves registradas del cliente con un algoritmo aceptado, o cuyo iss no es el client_id, cuyo aud no es el emisor de este servidor, que ha caducado o aún no es válido, o cuyo client_id difiere del de la solicitud (RFC 9101 §6.3).',
    action:
      'Vuelva a la aplicación y avise a su desarrollador: debe firmar el objeto de solicitud con una clave de jwks o jwks_uri del cliente (ES256, PS256, RS256, EdDSA y afines), con iss igual al client_id, aud igual al emisor y un exp corto.',
  },
  'invalid-logout-request': {
    title: 'Este enlace de cierre de sesión no es válido',
    summary:
      'La solicitud de cierre de sesión indica una post_logout_redirect_uri que no está registrada para la aplicación, no indica ninguna de sus aplicaciones, o lleva un id_token_hint que este servidor no emitió. El servidor no puede saber adónde sería seguro devolverle, así que se detiene aquí en lugar de redirigir (OpenID Connect RP-Initiated Logout 1.0 §3).',
    action:
      'Puede cerrar la sesión en la página simple de cierre de sesión. El desarrollador debe enviar un id_token_hint o un client_id, y exactamente uno de los URI de redirección posteriores al cierre de sesión registrados para el cliente (gatehouse clients add --post-logout-redirect-uri), carácter por carácter.',
  },
  'passkey-enrolment-failed': {
    title: 'No se añadió la llave de acceso',
    summary:
      'No se pudo verificar la nueva llave de acceso: la página de la cuenta había caducado o ya se había usado (cada página pregunta una vez, durante 5 minutos), el navegador indicó otro sitio, el autenticador no verificó al usuario, o la llave de acceso ya está registrada. No se guardó nada.',
    action: 'Recargue la página de la cuenta y añada la llave de acceso de nuevo.',
  },
  'malformed-request': {
    title: 'Solicitud mal formada',
    summary:
      'La solicitud no es HTTP/1.1 válido: un método desconocido, una solicitud CONNECT (el servidor no es un proxy), una línea de solicitud sin HTTP/1.1 (HTTP/0.9), una línea de solicitud o un campo de cabecera mal formado, un cuerpo más corto que su Content-Length, o una ruta de URL que no es UTF-8 válido codificado con porcentajes.',
    action:
      'Envíe una solicitud HTTP/1.1 bien formada con la ruta codificada con porcentajes en UTF-8; enviar de nuevo los mismos bytes vuelve a fallar.',
  },
  'request-header-too-large': {
    title: 'Campos de cabecera de la solicitud demasiado grandes',
    summary:
      'La línea de solicitud y los campos de cabecera juntos superan lo que acepta el servidor (16 KiB, salvo que el operador haya definido MAX_HEADER_BYTES), por ejemplo una URL de autorización con un state muy largo.',
    action: 'Acorte la URL y los campos de cabecera; envíe los valores grandes en el cuerpo de la solicitud.',
  },
  'request-timeout': {
    title: 'Tiempo de espera de la solicitud agotado',
    summary:
      'La solicitud no llegó a tiempo: sus cabeceras en 10 segundos, o la solicitud completa en 30 segundos (salvo que el operador haya definido HEADERS_TIMEOUT_MS o REQUEST_TIMEOUT_MS). No se hizo nada.',
    action: 'Envíe la solicitud de nuevo, sin pausas a mitad.',
  },
  'organization-sign-in-method': {
    title: 'Su organización pide otra forma de iniciar sesión',
    summary:
      'Inició sesión de una forma que la organización que pidió la aplicación no permite (sus métodos de inicio de sesión: una contraseña, una llave de acceso o el proveedor de identidad de la organización). No se concedió nada.',
    action:
      'Cierre la sesión y vuelva a iniciarla de una de las formas que indican los detalles (por ejemplo con su llave de acceso o mediante el proveedor de identidad de su empresa), o consulte a un administrador de la organización.',
  },
  'invitation-link-invalid': {
    title: 'Esta invitación ya no funciona',
    summary:
      'El enlace de invitación ya se usó, es más antiguo de lo que permite el operador (7 días salvo que se indique otra cosa), fue revocado, es para una dirección que una cuenta ha tomado desde entonces o para una cuenta que cambió su dirección o fue desactivada, es de otra cuenta o no lo envió este servidor. Cada invitación funciona una vez. No se cambió nada.',
    action: 'Pida una nueva invitación a quien le invitó. Si ya la aceptó, inicie sesión como siempre.',
  },
  'sign-up-needs-invitation': {
    title: 'Las cuentas se crean solo por invitación',
    summary:
      'Este servidor crea cuentas solo para personas invitadas por su operador (SIGN_UP=invite): el formulario de registro se abrió sin invitación. No se creó ninguna cuenta.',
    action:
      'Abra el correo de invitación que recibió y siga su enlace, o pida una invitación al operador. Si ya tiene una cuenta, inicie sesión.',
  },
  'sign-up-address-not-accepted': {
    title: 'Esta dirección de correo no sirve para registrarse',
    summary:
      'La dirección de correo del registro no es una dirección (una @, un dominio con un punto, sin espacios, comillas, corchetes angulares, comas ni caracteres de control, 254 caracteres como máximo, RFC 5321 §4.5.3.1.3), o su dominio no es uno de los que permite el operador (SIGN_UP_DOMAINS). No se creó ninguna cuenta ni se envió ningún correo.',
    action:
      'Escriba su dirección tal como recibe correo en ella; si la página indica los dominios permitidos, use una dirección de uno de ellos.',
  },
  'sign-up-name-not-accepted': {
    title: 'Este nombre no se puede usar',
    summary:
      'El nombre del registro está vacío, supera los 128 caracteres o contiene un salto de línea u otro carácter de control. No se creó ninguna cuenta ni se envió ningún correo.',
    action: 'Escriba en una sola línea el nombre que quiere que muestren las aplicaciones.',
  },
  'too-many-sign-ups': {
    title: 'Demasiados registros',
    summary:
      'Se pidieron cuentas demasiadas veces: desde esta dirección de red (10 por hora de forma predeterminada) o con direcciones de este dominio de correo (50 por hora). Para esta solicitud no se creó ninguna cuenta ni se envió ningún correo. Los operadores fijan los límites con RATE_LIMIT_SIGN_UP_ADDRESS y RATE_LIMIT_SIGN_UP_DOMAIN.',
    action: 'Espere el tiempo indicado en la cabecera Retry-After (que muestra la página) y regístrese de nuevo.',
  },
  'account-deletion-not-confirmed': {
    title: 'Escriba su nombre de usuario para eliminar la cuenta',
    summary:
      'Eliminar una cuenta pide su nombre de usuario, escrito como confirmación, y un inicio de sesión de los últimos 10 minutos: lo escrito no es el nombre de usuario de la cuenta con la sesión iniciada. No se eliminó nada.',
    action:
      'Escriba su nombre de usuario exactamente como lo muestra la página y elimine de nuevo; o salga de la página para conservar la cuenta.',
  },
  'email-change-address-not-accepted': {
    title: 'Esta dirección de correo no se puede usar',
    summary:
      'La nueva dirección escrita en la página de la cuenta no es una dirección (una @, un dominio con un punto, sin espacios, comillas, corchetes angulares, comas, saltos de línea ni otros caracteres de control, 254 caracteres como máximo, RFC 5321 §4.5.3.1.3). La dirección de la cuenta no cambió y no se envió ningún correo.',
    action: 'Vuelva a la página de la cuenta y escriba la nueva dirección tal como recibe correo en ella.',
  },
};
