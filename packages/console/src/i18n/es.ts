import type { Catalog } from './en.js';

export const es: Catalog = {
  'console.title': 'Consola de Gatehouse',
  'console.skip': 'Saltar al contenido',
  'console.nav': 'Secciones de la consola',
  'console.signed-in-as': 'Sesión iniciada como {name}',
  'console.sign-out': 'Cerrar sesión',
  'console.loading': 'Cargando…',
  'nav.dashboard': 'Panel',
  'welcome.title': 'Iniciar sesión en la consola',
  'welcome.lead':
    'Aquí los administradores gestionan usuarios, aplicaciones y claves de firma. Para iniciar sesión se piden tu contraseña y un segundo factor.',
  'welcome.sign-in': 'Iniciar sesión',
  'welcome.signed-out': 'Has cerrado la sesión.',
  'callback.title': 'Iniciando sesión…',
  'refused.second-factor.title': 'Se necesita un segundo factor',
  'refused.second-factor.detail':
    'La consola solo acepta un inicio de sesión con dos factores. Añade una llave de acceso o una aplicación de autenticación en la página de tu cuenta y vuelve a iniciar sesión.',
  'refused.role.title': 'Has iniciado sesión, pero no tienes ningún rol de administración',
  'refused.role.detail':
    'Tu cuenta {name} no tiene ninguno de los roles admin, user-manager o auditor. Pide a un administrador que te asigne uno y vuelve a iniciar sesión.',
  'refused.callback.title': 'No se pudo completar el inicio de sesión',
  'refused.callback.detail':
    'La respuesta recibida no corresponde a ningún inicio de sesión de esta consola, o se canceló. Vuelve a empezar.',
  'refused.invalid.title': 'No se pudo comprobar el inicio de sesión',
  'refused.invalid.detail': 'El token de identidad no es para esta consola o ha caducado. Vuelve a empezar.',
  'refused.not-fresh.title': 'Vuelve a iniciar sesión para continuar',
  'refused.not-fresh.detail': 'Esta acción requiere un inicio de sesión de hace pocos minutos.',
  'refused.sign-in-again': 'Volver a iniciar sesión',
  'refused.account': 'Abrir la página de tu cuenta',
  'problem.title': 'La API de administración lo ha rechazado',
  'problem.status': 'Estado HTTP {status}',
  'problem.retry': 'Reintentar',
  'dashboard.title': 'Panel',
  'dashboard.keys': 'Claves de firma',
  'dashboard.keys.current': 'Clave actual',
  'dashboard.keys.count': '{count, plural, one {# clave publicada} other {# claves publicadas}}',
  'dashboard.failures': 'Fallos recientes',
  'dashboard.failures.caption':
    'Inicios de sesión fallidos, autenticaciones de cliente fallidas y reutilización de tokens de actualización en las últimas 24 horas',
  'dashboard.failures.none': 'Ningún fallo en las últimas 24 horas.',
  'dashboard.failures.more': 'Se muestran los {count} más recientes.',
  'table.when': 'Fecha',
  'table.event': 'Evento',
  'table.client': 'Aplicación',
  'table.subject': 'Usuario',
  'table.reason': 'Motivo',
};
