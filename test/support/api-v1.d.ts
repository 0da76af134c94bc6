/**
 * Generado por openapi-typescript desde /api/v1/openapi.json: no lo edite a mano.
 * Para regenerarlo: npm run openapi:tipos
 */

export interface paths {
    "/decas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Listar DeCA
         * @description Lista de DeCA, la más reciente primero (con desde/hasta, por fecha de transporte; con modificado_desde, por su último cambio), con filtros y cursor «siguiente».
         */
        get: operations["listar_decas"];
        put?: never;
        /**
         * Crear (y emitir) una DeCA
         * @description Crea una DeCA y la emite (PDF, QR y URL), o la deja pendiente para que la otra parte complete sus datos.
         *
         *     Conflictos (409): `ref_externa_usada`, `cuenta_incompleta`, `cuenta_sin_confirmar`, `en_curso`.
         */
        post: operations["crear_deca"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Ver una DeCA
         * @description Una DeCA con sus envíos, su estado y sus URL.
         */
        get: operations["ver_deca"];
        put?: never;
        post?: never;
        /**
         * Eliminar una DeCA pendiente
         * @description Borra una DeCA pendiente (las emitidas no se borran: se conservan un año).
         *
         *     Conflictos (409): `emitido`, `sustituido`, `en_curso`.
         */
        delete: operations["eliminar_deca"];
        options?: never;
        head?: never;
        /**
         * Modificar una DeCA (método 1)
         * @description Cambia datos de una DeCA. Pendiente: se cambian (y con emitir, se emite). Emitida: método 1, con «motivo»; misma URL y QR, versión nueva.
         *
         *     Conflictos (409): `emitido`, `pendiente`, `sustituido`, `servicio_finalizado`, `en_curso`, `sin_cambios`, `conflicto`.
         */
        patch: operations["modificar_deca"];
        trace?: never;
    };
    "/decas/{id}/emitir": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Emitir una DeCA pendiente
         * @description Emite una DeCA pendiente cuyos datos están completos.
         *
         *     Conflictos (409): `emitido`, `sustituido`, `cuenta_incompleta`, `cuenta_sin_confirmar`, `en_curso`.
         */
        post: operations["emitir_deca"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}/sustituir": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sustituir una DeCA (método 2)
         * @description Método 2: crea una DeCA nueva (nueva URL y QR) con los cambios y marca la anterior como sustituida. «motivo» obligatorio.
         *
         *     Conflictos (409): `emitido`, `pendiente`, `sustituido`, `servicio_finalizado`, `en_curso`.
         */
        post: operations["sustituir_deca"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}/fin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Marcar el fin del servicio
         * @description Marca el fin del servicio de una DeCA emitida.
         *
         *     Conflictos (409): `pendiente`, `sustituido`, `servicio_finalizado`, `en_curso`.
         */
        post: operations["fin_servicio"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}/archivar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archivar o desarchivar
         * @description Archiva (archivado true) o desarchiva (false) una DeCA, en cualquier estado.
         *
         *     Conflictos (409): `en_curso`.
         */
        post: operations["archivar_deca"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}/cambios": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Historial de cambios
         * @description El historial de cambios de una DeCA: versión, motivo, quién y qué cambió.
         */
        get: operations["historial_deca"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}/descargas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Aperturas de la ficha pública
         * @description Cada apertura de la URL pública o del QR de una DeCA: fecha, IP y navegador.
         */
        get: operations["descargas_deca"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}/pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * PDF de la DeCA
         * @description El PDF de la versión vigente de una DeCA emitida (no cuenta como descarga pública).
         *
         *     Conflictos (409): `pendiente`.
         */
        get: operations["pdf_deca"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}/qr.png": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * QR de la DeCA
         * @description El código QR (PNG) que lleva a la ficha pública de una DeCA.
         *
         *     Conflictos (409): `pendiente`.
         */
        get: operations["qr_deca"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}/efti": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * La DeCA como conjunto de datos eFTI (XML)
         * @description Una versión emitida de una DeCA (la vigente por defecto) como conjunto de datos eFTI: el XML «consignment» del esquema común de referencia, con su UIL.
         *
         *     Conflictos (409): `pendiente`.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        get: operations["efti_deca"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}/foto": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Foto del albarán de la DeCA
         * @description La foto del albarán de la que se hizo una DeCA (extensión), tal como llegó a POST /fotos: solo para la cuenta, nunca en las páginas públicas.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        get: operations["foto_deca"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}/pedir-datos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pedir sus datos a la otra parte
         * @description El enlace para que la otra parte complete sus datos de una DeCA pendiente; se le envía por correo si se da «email».
         *
         *     Conflictos (409): `emitido`, `sustituido`.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        post: operations["pedir_datos"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}/enviar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enviar la DeCA por correo
         * @description Envía por correo una DeCA emitida (PDF adjunto) y devuelve el texto para la aplicación de mensajería del conductor.
         *
         *     Conflictos (409): `pendiente`.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        post: operations["enviar_deca"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}/control": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Anotar un control en carretera
         * @description Anota el código numérico que un agente dio al conductor en un control en carretera (extensión): queda en el historial y sale el evento deca.control; después hay que enviar el PDF/A a la sede electrónica (sede_url) con ese código.
         *
         *     Conflictos (409): `pendiente`, `en_curso`.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        post: operations["control_carretera"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}/entregas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Entregas de una DeCA
         * @description Las entregas (o rechazos) anotadas de una DeCA, de la primera a la última (extensión).
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        get: operations["ver_entregas"];
        put?: never;
        /**
         * Anotar la entrega de un envío (o su rechazo)
         * @description Anota la entrega de un envío de una DeCA emitida (o de todos), con el nombre y la firma de quien recibe y sus reservas, o su rechazo con el motivo (extensión): queda en el historial y sale el evento deca.entregado o deca.entrega_rechazada.
         *
         *     Conflictos (409): `pendiente`, `sustituido`, `entregado`, `en_curso`.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        post: operations["entregar_deca"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}/entregas/{n}/pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Justificante de entrega (PDF)
         * @description El justificante de una entrega (PDF/A sellado), con la firma y las fotos: solo para la cuenta (extensión).
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        get: operations["pdf_entrega"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}/entregas/{n}/firma.png": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Firma de una entrega (PNG)
         * @description La firma de una entrega como imagen PNG, dibujada de sus trazos: solo para la cuenta (extensión).
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        get: operations["firma_entrega"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}/entregas/firma-remota": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enlace para firmar en el móvil del destinatario
         * @description Un enlace (para un QR) con el que el destinatario firma la entrega de un envío en su propio móvil, sin cuenta: vale 30 minutos y una sola firma, y la entrega queda como si la anotara el conductor (extensión).
         *
         *     Conflictos (409): `pendiente`, `sustituido`, `entregado`.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        post: operations["pedir_firma_remota"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}/entregas/firma-remota/{solicitud}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Estado de un enlace para firmar
         * @description Cómo va un enlace para firmar en el móvil del destinatario: esperando, firmada (con la entrega), caducada o anulada (extensión).
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        get: operations["ver_firma_remota"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas/{id}/entregas/firma-remota/{solicitud}/anular": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Anular un enlace para firmar
         * @description Anula un enlace para firmar en el móvil del destinatario que aún espera (se firma en el del conductor); uno ya firmado no se deshace (extensión).
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        post: operations["anular_firma_remota"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/camino": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Documentos para el camino
         * @description Las DeCA emitidas con fecha de transporte de 7 días atrás a 7 adelante (fecha del servidor), con PDF y QR, para llevarlas en el dispositivo sin cobertura.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        get: operations["documentos_camino"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cuenta": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * La cuenta y su cuota
         * @description La empresa de la cuenta, su plan y la cuota mensual de DeCA del entorno.
         */
        get: operations["ver_cuenta"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/efti/accesos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Accesos de autoridades por eFTI
         * @description El registro de accesos de autoridades a los datos de la cuenta a través de una pasarela eFTI: quién, cuándo, qué consultó y qué DeCA se le devolvieron.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        get: operations["efti_accesos"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agenda/empresas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Buscar empresas en la agenda
         * @description Busca en la agenda de la cuenta (empresas, vehículos o lugares ya usados) por cualquier parte del nombre, NIF, matrícula o lugar, sin importar mayúsculas ni acentos; las más usadas primero. Las entradas con avisos (un NIF con el carácter de control mal) no salen, porque no se sugieren, salvo con con_avisos=1.
         */
        get: operations["buscar_agenda_empresas"];
        put?: never;
        /**
         * Guardar empresa en la agenda
         * @description Crea una entrada de la agenda o cambia los datos de la que tiene el mismo NIF, matrícula o texto.
         */
        post: operations["guardar_agenda_empresas"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agenda/vehiculos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Buscar vehículos en la agenda
         * @description Busca en la agenda de la cuenta (empresas, vehículos o lugares ya usados) por cualquier parte del nombre, NIF, matrícula o lugar, sin importar mayúsculas ni acentos; las más usadas primero. Las entradas con avisos (un NIF con el carácter de control mal) no salen, porque no se sugieren, salvo con con_avisos=1.
         */
        get: operations["buscar_agenda_vehiculos"];
        put?: never;
        /**
         * Guardar vehículo en la agenda
         * @description Crea una entrada de la agenda o cambia los datos de la que tiene el mismo NIF, matrícula o texto.
         */
        post: operations["guardar_agenda_vehiculos"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agenda/lugares": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Buscar lugares en la agenda
         * @description Busca en la agenda de la cuenta (empresas, vehículos o lugares ya usados) por cualquier parte del nombre, NIF, matrícula o lugar, sin importar mayúsculas ni acentos; las más usadas primero. Las entradas con avisos (un NIF con el carácter de control mal) no salen, porque no se sugieren, salvo con con_avisos=1.
         */
        get: operations["buscar_agenda_lugares"];
        put?: never;
        /**
         * Guardar lugar en la agenda
         * @description Crea una entrada de la agenda o cambia los datos de la que tiene el mismo NIF, matrícula o texto.
         */
        post: operations["guardar_agenda_lugares"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agenda/empresas/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Borrar empresa de la agenda
         * @description Borra una entrada de la agenda (deja de sugerirse; una DeCA nueva que la nombre la vuelve a añadir).
         *
         *     Conflictos (409): `en_curso`.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        delete: operations["eliminar_agenda_empresas"];
        options?: never;
        head?: never;
        /**
         * Cambiar empresa en la agenda
         * @description Cambia los datos de una entrada de la agenda, su NIF, matrícula o texto incluidos (null o "" borra un dato opcional; lo que no se envía se queda). Corregir un NIF con el carácter de control mal quita su aviso y la entrada vuelve a sugerirse. Si el dato nuevo ya es de otra entrada, 422: fusiónelas.
         *
         *     Conflictos (409): `en_curso`.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        patch: operations["cambiar_agenda_empresas"];
        trace?: never;
    };
    "/agenda/empresas/{id}/fusionar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fusionar dos empresas de la agenda
         * @description Fusiona dos entradas de la agenda que son lo mismo (p. ej. la misma empresa con un NIF bien y otro mal): queda la del camino con sus datos y desaparece «otra»; sus usos se suman.
         *
         *     Conflictos (409): `en_curso`.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        post: operations["fusionar_agenda_empresas"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agenda/vehiculos/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Borrar vehículo de la agenda
         * @description Borra una entrada de la agenda (deja de sugerirse; una DeCA nueva que la nombre la vuelve a añadir).
         *
         *     Conflictos (409): `en_curso`.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        delete: operations["eliminar_agenda_vehiculos"];
        options?: never;
        head?: never;
        /**
         * Cambiar vehículo en la agenda
         * @description Cambia los datos de una entrada de la agenda, su NIF, matrícula o texto incluidos (null o "" borra un dato opcional; lo que no se envía se queda). Corregir un NIF con el carácter de control mal quita su aviso y la entrada vuelve a sugerirse. Si el dato nuevo ya es de otra entrada, 422: fusiónelas.
         *
         *     Conflictos (409): `en_curso`.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        patch: operations["cambiar_agenda_vehiculos"];
        trace?: never;
    };
    "/agenda/vehiculos/{id}/fusionar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fusionar dos vehículos de la agenda
         * @description Fusiona dos entradas de la agenda que son lo mismo (p. ej. la misma empresa con un NIF bien y otro mal): queda la del camino con sus datos y desaparece «otra»; sus usos se suman.
         *
         *     Conflictos (409): `en_curso`.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        post: operations["fusionar_agenda_vehiculos"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agenda/lugares/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Borrar lugar de la agenda
         * @description Borra una entrada de la agenda (deja de sugerirse; una DeCA nueva que la nombre la vuelve a añadir).
         *
         *     Conflictos (409): `en_curso`.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        delete: operations["eliminar_agenda_lugares"];
        options?: never;
        head?: never;
        /**
         * Cambiar lugar en la agenda
         * @description Cambia los datos de una entrada de la agenda, su NIF, matrícula o texto incluidos (null o "" borra un dato opcional; lo que no se envía se queda). Corregir un NIF con el carácter de control mal quita su aviso y la entrada vuelve a sugerirse. Si el dato nuevo ya es de otra entrada, 422: fusiónelas.
         *
         *     Conflictos (409): `en_curso`.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        patch: operations["cambiar_agenda_lugares"];
        trace?: never;
    };
    "/agenda/lugares/{id}/fusionar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fusionar dos lugares de la agenda
         * @description Fusiona dos entradas de la agenda que son lo mismo (p. ej. la misma empresa con un NIF bien y otro mal): queda la del camino con sus datos y desaparece «otra»; sus usos se suman.
         *
         *     Conflictos (409): `en_curso`.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        post: operations["fusionar_agenda_lugares"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/importar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Importar un CSV
         * @description Importa DeCA desde un CSV (una fila por envío; las filas con la misma ref_externa o referencia son una DeCA; hasta 500 DeCA y 24.001 filas con la cabecera). Con validar solo comprueba (errores y avisos de cada DeCA, los mismos que POST /decas); reimportar el mismo archivo no duplica y otro archivo sin referencias se importa: la clave de cada DeCA sale de su contenido (y de la Idempotency-Key de la subida, si se envía).
         */
        post: operations["importar_csv"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decas.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Exportar la lista a CSV
         * @description Las DeCA del listado (mismos filtros) en CSV con las columnas de la importación, una fila por envío.
         *
         *     Extensión de este servicio (no está en la especificación).
         */
        get: operations["exportar_csv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fotos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Leer la foto de un albarán
         * @description Lee la foto de un albarán, pedido o carta de porte y devuelve los datos de una DeCA para revisar (partes con NIF, fecha, matrículas, lugares, mercancía y pesos, cada uno con su confianza). No crea nada; gasta una lectura de fotos del mes.
         *
         *     Conflictos (409): `en_curso`.
         */
        post: operations["leer_albaran"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Listar webhooks
         * @description Los webhooks de la cuenta en este entorno.
         */
        get: operations["listar_webhooks"];
        put?: never;
        /**
         * Crear un webhook
         * @description Crea un webhook (url https, eventos, descripción); devuelve su secreto whsec_ una sola vez.
         *
         *     Conflictos (409): `limite_webhooks`.
         */
        post: operations["crear_webhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Ver un webhook
         * @description Un webhook (sin su secreto).
         */
        get: operations["ver_webhook"];
        put?: never;
        post?: never;
        /**
         * Eliminar un webhook
         * @description Borra un webhook con sus entregas.
         */
        delete: operations["eliminar_webhook"];
        options?: never;
        head?: never;
        /**
         * Cambiar, pausar o reanudar
         * @description Pausa o reanuda un webhook (activo), o cambia sus eventos o su descripción.
         */
        patch: operations["cambiar_webhook"];
        trace?: never;
    };
    "/webhooks/{id}/entregas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Entregas de un webhook
         * @description Las 100 últimas entregas de un webhook, con cada intento.
         */
        get: operations["entregas_webhook"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/probar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enviar un ping de prueba
         * @description Envía ahora un evento «ping» al webhook y devuelve el resultado.
         */
        post: operations["probar_webhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/entregas/{entrega}/reenviar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reenviar una entrega
         * @description Reenvía ahora una entrega (mismo id y cuerpo, firma nueva) y devuelve el resultado.
         *
         *     Conflictos (409): `en_curso`.
         */
        post: operations["reenviar_entrega"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "deca.creado": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evento deca.creado
         * @description Entrega firmada en `X-Deca-Firma` (véase la cabecera). Responda 2xx en 10 s; si no, se reintenta a 1 min, 5 min, 30 min, 2 h y 12 h con el mismo `X-Deca-Entrega`.
         */
        post: operations["recibir_deca_creado"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "deca.emitido": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evento deca.emitido
         * @description Entrega firmada en `X-Deca-Firma` (véase la cabecera). Responda 2xx en 10 s; si no, se reintenta a 1 min, 5 min, 30 min, 2 h y 12 h con el mismo `X-Deca-Entrega`.
         */
        post: operations["recibir_deca_emitido"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "deca.modificado": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evento deca.modificado
         * @description Entrega firmada en `X-Deca-Firma` (véase la cabecera). Responda 2xx en 10 s; si no, se reintenta a 1 min, 5 min, 30 min, 2 h y 12 h con el mismo `X-Deca-Entrega`.
         */
        post: operations["recibir_deca_modificado"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "deca.sustituido": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evento deca.sustituido
         * @description Entrega firmada en `X-Deca-Firma` (véase la cabecera). Responda 2xx en 10 s; si no, se reintenta a 1 min, 5 min, 30 min, 2 h y 12 h con el mismo `X-Deca-Entrega`.
         */
        post: operations["recibir_deca_sustituido"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "deca.completado": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evento deca.completado
         * @description Entrega firmada en `X-Deca-Firma` (véase la cabecera). Responda 2xx en 10 s; si no, se reintenta a 1 min, 5 min, 30 min, 2 h y 12 h con el mismo `X-Deca-Entrega`.
         */
        post: operations["recibir_deca_completado"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "deca.fin_servicio": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evento deca.fin_servicio
         * @description Entrega firmada en `X-Deca-Firma` (véase la cabecera). Responda 2xx en 10 s; si no, se reintenta a 1 min, 5 min, 30 min, 2 h y 12 h con el mismo `X-Deca-Entrega`.
         */
        post: operations["recibir_deca_fin_servicio"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "deca.descargado": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evento deca.descargado
         * @description Entrega firmada en `X-Deca-Firma` (véase la cabecera). Responda 2xx en 10 s; si no, se reintenta a 1 min, 5 min, 30 min, 2 h y 12 h con el mismo `X-Deca-Entrega`.
         */
        post: operations["recibir_deca_descargado"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "deca.control": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evento deca.control
         * @description Entrega firmada en `X-Deca-Firma` (véase la cabecera). Responda 2xx en 10 s; si no, se reintenta a 1 min, 5 min, 30 min, 2 h y 12 h con el mismo `X-Deca-Entrega`.
         */
        post: operations["recibir_deca_control"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "deca.entregado": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evento deca.entregado
         * @description Entrega firmada en `X-Deca-Firma` (véase la cabecera). Responda 2xx en 10 s; si no, se reintenta a 1 min, 5 min, 30 min, 2 h y 12 h con el mismo `X-Deca-Entrega`.
         */
        post: operations["recibir_deca_entregado"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "deca.entrega_rechazada": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evento deca.entrega_rechazada
         * @description Entrega firmada en `X-Deca-Firma` (véase la cabecera). Responda 2xx en 10 s; si no, se reintenta a 1 min, 5 min, 30 min, 2 h y 12 h con el mismo `X-Deca-Entrega`.
         */
        post: operations["recibir_deca_entrega_rechazada"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    ping: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Prueba (POST /webhooks/{id}/probar)
         * @description Entrega firmada en `X-Deca-Firma` (véase la cabecera). Responda 2xx en 10 s; si no, se reintenta a 1 min, 5 min, 30 min, 2 h y 12 h con el mismo `X-Deca-Entrega`.
         */
        post: operations["recibir_ping"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        DecaInput: {
            /** @description Referencia propia, única por cuenta: reenviarla no duplica */
            ref_externa?: string;
            /**
             * @description Lado que ocupa quien llama; por defecto el de la cuenta
             * @enum {string}
             */
            emisor_rol?: "transportista" | "cargador";
            /** @description Cargador contractual: nombre o razón social */
            cargador_nombre?: string;
            /** @description Cargador contractual: NIF */
            cargador_nif?: string;
            /** @description Cargador contractual: domicilio */
            cargador_domicilio?: string;
            /** @description Transportista efectivo: nombre o razón social */
            transp_nombre?: string;
            /** @description Transportista efectivo: NIF */
            transp_nif?: string;
            /** @description Transportista efectivo: domicilio (extensión: el art. 6 lo pide; si falta se avisa) */
            transp_domicilio?: string;
            /** @description Cargador contractual: código postal (extensión, eFTI); 5 cifras si el país es ES o no se indica */
            cargador_cp?: string;
            /** @description Cargador contractual: municipio (extensión, eFTI) */
            cargador_municipio?: string;
            /** @description Cargador contractual: provincia o región (extensión, eFTI) */
            cargador_provincia?: string;
            /** @description Cargador contractual: país del domicilio, código ISO de dos letras (extensión, eFTI); si falta, se entiende ES */
            cargador_pais?: string;
            /** @description Transportista efectivo: código postal (extensión, eFTI); 5 cifras si el país es ES o no se indica */
            transp_cp?: string;
            /** @description Transportista efectivo: municipio (extensión, eFTI) */
            transp_municipio?: string;
            /** @description Transportista efectivo: provincia o región (extensión, eFTI) */
            transp_provincia?: string;
            /** @description Transportista efectivo: país del domicilio, código ISO de dos letras (extensión, eFTI); si falta, se entiende ES */
            transp_pais?: string;
            /** @description Fecha del transporte, AAAA-MM-DD */
            fecha_transporte?: string;
            /**
             * @description rigido o articulado; con remolque es articulado
             * @enum {string}
             */
            tipo_vehiculo?: "rigido" | "articulado";
            /** @description Matrícula del tractor o del vehículo rígido */
            matricula?: string;
            /** @description Matrícula del remolque o semirremolque */
            matricula_remolque?: string;
            /** @description Extensión (eFTI): país de matriculación del vehículo, código ISO de dos letras; si falta, ES cuando la matrícula es de una serie española */
            matricula_pais?: string;
            /** @description Extensión (eFTI): país de matriculación del remolque, código ISO de dos letras; si falta, ES cuando la matrícula es de una serie española */
            remolque_pais?: string;
            /** @description Autorización especial de circulación */
            autorizacion_especial?: string;
            /** @description Observaciones */
            observaciones?: string;
            /** @description Conductor */
            conductor_nombre?: string;
            /** @description Teléfono del conductor (no aparece en la página pública) */
            conductor_tel?: string;
            /** @description Referencia interna */
            referencia?: string;
            /** @description Envíos (1 a 48), todos con el mismo cargador y transportista */
            envios?: components["schemas"]["EnvioInput"][];
            /**
             * @description false: queda pendiente y se devuelve el enlace para la otra parte
             * @default true
             */
            emitir: boolean;
            /**
             * @description true: solo valida, no guarda nada
             * @default false
             */
            solo_validar: boolean;
            /**
             * Format: email
             * @description Con emitir false, se envía a este correo el enlace para completar
             */
            pedir_datos_email?: string;
            /** @description Extensión (aplicación con sesión): emitida en un dispositivo sin cobertura con un número reservado */
            emision_offline?: {
                dispositivo_id: number;
                numero: string;
                token: string;
                /** Format: date-time */
                emitida_at: string;
                /** @description El parámetro `o` del QR que el dispositivo firmó (resumen y firma): el PDF del servidor lleva el mismo QR */
                qr?: string;
            };
            /** @description Extensión (aplicación con sesión): el número reservado del dispositivo que ha de llevar la DeCA; si ya no es suyo, lleva el siguiente de la cuenta */
            reserva_dispositivo?: {
                dispositivo_id: number;
                numero: string;
            };
            /** @description Extensión: el foto_id que devolvió POST /fotos; la foto del albarán queda con la DeCA (GET /decas/{id}/foto). Ha de ser de la misma cuenta y entorno, y de ninguna otra DeCA */
            foto_id?: number;
        };
        EnvioInput: {
            /** @description Lugar de origen */
            origen?: string;
            /** @description Lugar de destino */
            destino?: string;
            /** @description Naturaleza de la mercancía */
            naturaleza?: string;
            /** @description Número, o texto como se escribe: 24.500, 24.500,5, «1,5 t» */
            peso?: number | string;
            /**
             * @description Unidad de la cantidad; por defecto kg
             * @enum {string}
             */
            unidad?: "kg" | "t" | "m3" | "l" | "palets" | "bultos" | "unidades" | "contenedores";
            nota?: string | null;
            /** @description Extensión (eFTI): destinatario de este envío, nombre o razón social; no se imprime en la DeCA */
            destinatario_nombre?: string | null;
            /** @description Extensión (eFTI): NIF del destinatario de este envío; si el carácter de control no cuadra, se avisa */
            destinatario_nif?: string | null;
        };
        DecaPatch: {
            ref_externa?: string | null;
            cargador_nombre?: string | null;
            cargador_nif?: string | null;
            cargador_domicilio?: string | null;
            transp_nombre?: string | null;
            transp_nif?: string | null;
            transp_domicilio?: string | null;
            cargador_cp?: string | null;
            cargador_municipio?: string | null;
            cargador_provincia?: string | null;
            cargador_pais?: string | null;
            transp_cp?: string | null;
            transp_municipio?: string | null;
            transp_provincia?: string | null;
            transp_pais?: string | null;
            fecha_transporte?: string | null;
            tipo_vehiculo?: ("rigido" | "articulado") | null;
            matricula?: string | null;
            matricula_remolque?: string | null;
            matricula_pais?: string | null;
            remolque_pais?: string | null;
            autorizacion_especial?: string | null;
            observaciones?: string | null;
            conductor_nombre?: string | null;
            conductor_tel?: string | null;
            referencia?: string | null;
            envios?: components["schemas"]["EnvioInput"][] | null;
            /** @description Motivo del cambio; obligatorio si la DeCA está emitida */
            motivo?: string;
            /** @description true: emitir tras aplicar los cambios (DeCA pendiente) */
            emitir?: boolean;
        };
        /** @description Sin campos: envíe `{}` (toda petición POST lleva un cuerpo) */
        Vacio: Record<string, never>;
        SustituirInput: {
            ref_externa?: string | null;
            cargador_nombre?: string | null;
            cargador_nif?: string | null;
            cargador_domicilio?: string | null;
            transp_nombre?: string | null;
            transp_nif?: string | null;
            transp_domicilio?: string | null;
            cargador_cp?: string | null;
            cargador_municipio?: string | null;
            cargador_provincia?: string | null;
            cargador_pais?: string | null;
            transp_cp?: string | null;
            transp_municipio?: string | null;
            transp_provincia?: string | null;
            transp_pais?: string | null;
            fecha_transporte?: string | null;
            tipo_vehiculo?: ("rigido" | "articulado") | null;
            matricula?: string | null;
            matricula_remolque?: string | null;
            matricula_pais?: string | null;
            remolque_pais?: string | null;
            autorizacion_especial?: string | null;
            observaciones?: string | null;
            conductor_nombre?: string | null;
            conductor_tel?: string | null;
            referencia?: string | null;
            envios?: components["schemas"]["EnvioInput"][] | null;
            /** @description Motivo de la sustitución (obligatorio) */
            motivo?: string;
            /** @description Extensión (aplicación con sesión): el número reservado del dispositivo que ha de llevar la DeCA; si ya no es suyo, lleva el siguiente de la cuenta */
            reserva_dispositivo?: {
                dispositivo_id: number;
                numero: string;
            };
        };
        /** @description Extensión: la entrega (o el rechazo) de un envío, recogida en el teléfono del conductor */
        EntregaDecaInput: {
            /** @description Índice del envío en `envios` (0 el primero); sin él, la entrega es de todos los envíos de la DeCA */
            envio?: number;
            /**
             * @description «entregada» (el destinatario la recibe y firma) o «rechazada» (no la acepta: diga el motivo)
             * @enum {string}
             */
            resultado: "entregada" | "rechazada";
            /** @description Nombre de quien recibe; obligatorio si se entrega */
            receptor_nombre?: string;
            /** @description DNI o NIE de quien recibe (opcional; si la letra de control no cuadra se guarda igual, con un aviso) */
            receptor_documento?: string;
            /** @description Obligatoria si se entrega */
            firma?: components["schemas"]["FirmaEntrega"];
            /** @description Reservas del destinatario (mercancía dañada, bultos que faltan…) */
            reservas?: string;
            /** @description true: recibida conforme, sin reservas. Al entregar, diga `reservas` o `sin_reservas: true` */
            sin_reservas?: boolean;
            /** @description Por qué no se acepta; obligatorio si se rechaza */
            motivo_rechazo?: string;
            /** @description Hasta 3 fotos de la entrega, JPEG de hasta 1600 px y 1 MB cada una, en base64 (con o sin el prefijo data:image/jpeg;base64,) */
            fotos?: string[];
            /**
             * Format: date-time
             * @description Hora del teléfono al recoger la entrega (aunque se envíe más tarde)
             */
            registrada_at: string;
            posicion?: components["schemas"]["PosicionEntrega"];
        };
        /** @description La firma del destinatario como trazos vectoriales */
        FirmaEntrega: {
            /** @description Ancho / alto del recuadro donde se firmó (p. ej. 2.5) */
            proporcion: number;
            /** @description Cada trazo (dedo apoyado hasta levantarlo) como lista de puntos, ya suavizados */
            trazos: number[][][];
        };
        /** @description Dónde estaba el teléfono, solo si el conductor lo permitió */
        PosicionEntrega: {
            lat: number;
            lon: number;
            /** @description Radio de precisión en metros, si el dispositivo lo da */
            precision_m?: number;
        };
        /** @description Extensión: pedir un enlace para que el destinatario firme la entrega en su propio móvil */
        FirmaRemotaInput: {
            /** @description Índice del envío en `envios` (0 el primero); sin él, la entrega es de todos los envíos de la DeCA */
            envio?: number;
        };
        AgendaEmpresaInput: {
            /** @description Nombre o razón social */
            nombre: string;
            /** @description NIF de la empresa (DNI, NIE o CIF con su carácter de control) */
            nif: string;
            /** @description Domicilio */
            domicilio?: string;
            /** @description Código postal; 5 cifras si el país es ES o no se indica */
            cp?: string;
            /** @description Municipio */
            municipio?: string;
            /** @description Provincia o región */
            provincia?: string;
            /** @description País del domicilio, código ISO de dos letras; si falta, se entiende ES */
            pais?: string;
            /**
             * @description Como qué parte aparece: cargador, transportista o ambos
             * @enum {string}
             */
            lado?: "cargador" | "transportista" | "ambos";
        };
        AgendaVehiculoInput: {
            /** @description Matrícula del tractor o del vehículo rígido */
            matricula: string;
            /** @description Matrícula del remolque habitual */
            matricula_remolque?: string;
            /** @enum {string} */
            tipo_vehiculo?: "rigido" | "articulado";
            autorizacion_especial?: string;
            /** @description Conductor habitual */
            conductor_nombre?: string;
            /** @description Teléfono del conductor habitual */
            conductor_tel?: string;
        };
        AgendaLugarInput: {
            /** @description El lugar tal como se escribe en los envíos */
            texto: string;
        };
        AgendaEmpresaPatch: {
            /** @description Nombre o razón social */
            nombre?: string;
            /** @description NIF de la empresa (DNI, NIE o CIF con su carácter de control) */
            nif?: string;
            /** @description Domicilio; null lo borra */
            domicilio?: string | null;
            /** @description Código postal; null lo borra */
            cp?: string | null;
            /** @description Municipio; null lo borra */
            municipio?: string | null;
            /** @description Provincia o región; null la borra */
            provincia?: string | null;
            /** @description País del domicilio (código ISO); null lo borra */
            pais?: string | null;
            /** @description Como qué parte aparece; null lo borra */
            lado?: ("" | "cargador" | "transportista" | "ambos") | null;
        };
        AgendaFusionInput: {
            /** @description Id de la entrada que desaparece: sus usos se suman a la que queda */
            otra: number;
        };
        AgendaVehiculoPatch: {
            /** @description Matrícula del tractor o del vehículo rígido */
            matricula?: string;
            /** @description Matrícula del remolque habitual; null la borra */
            matricula_remolque?: string | null;
            tipo_vehiculo?: ("" | "rigido" | "articulado") | null;
            autorizacion_especial?: string | null;
            /** @description Conductor habitual; null lo borra */
            conductor_nombre?: string | null;
            /** @description Teléfono del conductor habitual; null lo borra */
            conductor_tel?: string | null;
        };
        AgendaLugarPatch: {
            /** @description El lugar tal como se escribe en los envíos */
            texto?: string;
        };
        WebhookInput: {
            /** @description URL https:// que recibirá los eventos por POST */
            url: string;
            /** @description Eventos suscritos: nombres (deca.creado, deca.emitido, deca.modificado, deca.sustituido, deca.completado, deca.fin_servicio, deca.descargado, deca.control, deca.entregado, deca.entrega_rechazada) o ["*"] para todos */
            eventos?: ("deca.creado" | "deca.emitido" | "deca.modificado" | "deca.sustituido" | "deca.completado" | "deca.fin_servicio" | "deca.descargado" | "deca.control" | "deca.entregado" | "deca.entrega_rechazada" | "*")[];
            /** @description Texto libre para reconocerlo */
            descripcion?: string | null;
        };
        WebhookPatch: {
            /** @description true: activo; false: pausado */
            activo?: boolean;
            /** @description Eventos suscritos: nombres (deca.creado, deca.emitido, deca.modificado, deca.sustituido, deca.completado, deca.fin_servicio, deca.descargado, deca.control, deca.entregado, deca.entrega_rechazada) o ["*"] para todos */
            eventos?: ("deca.creado" | "deca.emitido" | "deca.modificado" | "deca.sustituido" | "deca.completado" | "deca.fin_servicio" | "deca.descargado" | "deca.control" | "deca.entregado" | "deca.entrega_rechazada" | "*")[];
            descripcion?: string | null;
        };
        WebhookPayload: {
            id: string;
            /** @enum {string} */
            evento: "deca.creado" | "deca.emitido" | "deca.modificado" | "deca.sustituido" | "deca.completado" | "deca.fin_servicio" | "deca.descargado" | "deca.control" | "deca.entregado" | "deca.entrega_rechazada" | "ping";
            /** @description ISO 8601 con desfase, hora de Madrid */
            creado_at: string;
            /** @enum {string} */
            entorno: "produccion" | "pruebas";
            data: {
                deca?: components["schemas"]["Deca"];
            } & {
                [key: string]: unknown;
            };
        };
        Deca: {
            id: number;
            numero: string;
            /** @enum {string} */
            estado: "pendiente" | "emitido" | "sustituido";
            version: number;
            ref_externa: string | null;
            /**
             * @description Lado de la DeCA que ocupa la cuenta
             * @enum {string}
             */
            emisor_rol: "transportista" | "cargador";
            /** @enum {string} */
            canal: "api" | "web" | "mcp" | "importacion";
            cargador_nombre: string | null;
            cargador_nif: string | null;
            cargador_domicilio: string | null;
            transp_nombre: string | null;
            transp_nif: string | null;
            transp_domicilio: string | null;
            cargador_cp: string | null;
            cargador_municipio: string | null;
            cargador_provincia: string | null;
            cargador_pais: string | null;
            transp_cp: string | null;
            transp_municipio: string | null;
            transp_provincia: string | null;
            transp_pais: string | null;
            fecha_transporte: string | null;
            tipo_vehiculo: ("rigido" | "articulado") | null;
            matricula: string | null;
            matricula_remolque: string | null;
            matricula_pais: string | null;
            remolque_pais: string | null;
            autorizacion_especial: string | null;
            conductor_nombre: string | null;
            conductor_tel: string | null;
            observaciones: string | null;
            referencia: string | null;
            envios: components["schemas"]["Envio"][];
            urls: components["schemas"]["DecaUrls"];
            pdf_sha256: string | null;
            pdf_bytes: number | null;
            emitido_at: string | null;
            /** @description Último cambio (creación incluida): lo que filtra modificado_desde */
            modificado_at: string;
            /** @description AAAA-MM-DD HH:MM:SS, hora de Madrid */
            created_at: string;
            fin_servicio_at: string | null;
            sustituye_a: components["schemas"]["DecaRef"] | null;
            sustituido_por: components["schemas"]["DecaRef"] | null;
            archivado: boolean;
            descargas: number;
            /** @description Extensión: emitida sin cobertura en un dispositivo; null si no */
            emision_offline: {
                /** @description Nombre del dispositivo que la emitió */
                dispositivo: string;
                /** @description Hora del dispositivo al emitirla (la del PDF) */
                emitida_at: string;
                /** @description Cuando la recibió el servidor */
                recibida_at: string;
            } | null;
        };
        Envio: {
            origen: string | null;
            destino: string | null;
            naturaleza: string | null;
            peso: number | null;
            /**
             * @description Unidad de la cantidad; por defecto kg
             * @enum {string}
             */
            unidad: "kg" | "t" | "m3" | "l" | "palets" | "bultos" | "unidades" | "contenedores";
            nota: string | null;
            /** @description Extensión (eFTI): destinatario de este envío; null si no se indicó */
            destinatario_nombre: string | null;
            /** @description Extensión (eFTI): NIF del destinatario; null si no se indicó */
            destinatario_nif: string | null;
        };
        DecaUrls: {
            pdf: string;
            qr_png: string;
            conductor: string;
            completar: string | null;
            ficha: string;
        };
        DecaRef: {
            id: number;
            numero: string;
            ficha: string;
        };
        Error: {
            error: {
                codigo: string;
                mensaje: string;
                campos: {
                    [key: string]: string;
                };
                avisos: components["schemas"]["Aviso"][];
                request_id: string;
            };
        };
        Aviso: {
            /** @description Ruta del campo afectado, o null si es general */
            campo: string | null;
            /** @description Identificador estable del aviso */
            codigo: string;
            /** @description Explicación en español */
            mensaje: string;
        };
        Cambio: {
            version: number;
            /** @enum {string} */
            tipo: "creacion" | "modificacion" | "emision" | "completado" | "sustitucion" | "fin_servicio" | "archivado" | "desarchivado" | "control" | "entrega";
            motivo: string | null;
            autor: {
                /** @enum {string} */
                tipo: "usuario" | "clave" | "enlace" | "sistema";
                id: number | null;
                /** @description Correo del usuario, prefijo de la clave, o «otra parte (enlace)» */
                nombre: string;
            };
            /** @enum {string} */
            canal: "api" | "web" | "mcp" | "importacion";
            /** @description AAAA-MM-DD HH:MM:SS, hora de Madrid */
            created_at: string;
            campos: {
                campo: string;
                antes: unknown;
                despues: unknown;
            }[];
        };
        Descarga: {
            /** @description AAAA-MM-DD HH:MM:SS, hora de Madrid */
            fecha: string;
            /** @enum {string} */
            recurso: "ficha" | "pdf" | "conductor" | "qr";
            version: number;
            ip: string;
            navegador: string;
            /** @description Vista previa o escáner de correo: anotada, no cuenta */
            robot: boolean;
            motivo_robot: string | null;
        };
        ControlCarretera: {
            codigo: string;
            /** @description YYYY-MM-DD HH:MM:SS (hora de Madrid) */
            registrado_at: string;
            version: number;
        };
        EntregaDecaCreada: {
            entrega: components["schemas"]["EntregaDeca"];
            avisos: components["schemas"]["Aviso"][];
        };
        EntregaDeca: {
            /** @description Número de la entrega en su DeCA (1, 2…): el de /decas/{id}/entregas/{n}/pdf */
            n: number;
            /** @description Índice del envío; null si es de todos */
            envio: number | null;
            /**
             * @description «entregada» (el destinatario la recibe y firma) o «rechazada» (no la acepta: diga el motivo)
             * @enum {string}
             */
            resultado: "entregada" | "rechazada";
            receptor_nombre: string | null;
            receptor_documento: string | null;
            firma: components["schemas"]["FirmaEntregaOutput"] | null;
            reservas: string | null;
            sin_reservas: boolean;
            motivo_rechazo: string | null;
            /** @description Cuántas fotos se guardaron (salen en el justificante) */
            fotos: number;
            posicion: components["schemas"]["PosicionEntregaOutput"] | null;
            /** @description Hora del teléfono al recogerla */
            registrada_at: string;
            /** @description Cuando la recibió el servidor */
            recibida_at: string;
            /** @enum {string} */
            canal: "api" | "web" | "mcp" | "importacion";
            /** @description SHA-256 del justificante sellado (lo que /verificar reconoce) */
            pdf_sha256: string;
            urls: {
                /**
                 * Format: uri
                 * @description El justificante (PDF/A sellado), con la clave de la cuenta
                 */
                pdf: string;
                /** @description La firma como imagen PNG (fondo transparente), con la clave de la cuenta; null sin firma */
                firma: string | null;
                /**
                 * Format: uri
                 * @description Página pública que confirma el justificante (su QR); sin firma ni fotos
                 */
                verificar: string;
            };
        };
        EntregasDecaList: {
            data: components["schemas"]["EntregaDeca"][];
        };
        FirmaRemotaRespuesta: {
            firma_remota: components["schemas"]["FirmaRemota"];
        };
        FirmaRemota: {
            /** @description El de /decas/{id}/entregas/firma-remota/{solicitud} */
            id: number;
            /** @description Índice del envío; null si es de todos */
            envio: number | null;
            /**
             * @description «esperando» (aún no ha firmado), «firmada» (ver `entrega`), «caducada» (pasaron los 30 minutos) o «anulada» (se pidió otro enlace para el mismo envío)
             * @enum {string}
             */
            estado: "esperando" | "firmada" | "caducada" | "anulada";
            /** @description El enlace que abre el destinatario (para el QR); solo en la respuesta que lo crea: el servicio no lo guarda */
            url: string | null;
            /** @description Hasta cuándo vale el enlace */
            expira_at: string;
            /** @description Segundos que le quedan al enlace (0 si ya no vale) */
            segundos_restantes: number;
            /** @description La entrega que hizo su firma, cuando está firmada */
            entrega: components["schemas"]["EntregaDeca"] | null;
        };
        AccesoEfti: {
            id: number;
            /** @description AAAA-MM-DD HH:MM:SS, hora de Madrid */
            fecha: string;
            /** @description La pasarela eFTI que consultó (su identificador, EFTI_GATE_ID) */
            pasarela: string;
            /** @description El requestId de la consulta: identifica la petición de la autoridad en toda la cadena de pasarelas */
            request_id: string | null;
            /**
             * @description `uil`: un conjunto de datos por su UIL; `identificador`: por matrícula
             * @enum {string}
             */
            consulta: "uil" | "identificador";
            /** @description En una consulta por UIL, el conjunto de datos pedido */
            dataset_id: string | null;
            /** @description En una consulta por identificador, la matrícula buscada, tal como llegó */
            identificador: string | null;
            /** @description means (vehículo), equipment (remolque), carried; vacío: cualquiera */
            tipos_identificador: string[];
            /** @description País de matriculación pedido, si lo hubo */
            pais: string | null;
            /** @description En una consulta por UIL, los subconjuntos pedidos */
            subsets: string[];
            /** @description Las DeCA de la cuenta que se devolvieron, con la versión */
            decas: {
                numero: string;
                version: number;
            }[];
        };
        AgendaEmpresa: {
            id: number;
            /** @description DeCAs en que ha aparecido */
            usos: number;
            /** @description Última vez que apareció en una DeCA (ISO 8601); null si solo se guardó a mano */
            ultimo_uso: string | null;
            /** @description Lo que hay que revisar (un NIF con el carácter de control mal, `nif_dudoso`): una entrada con avisos no se sugiere hasta corregirla */
            avisos: components["schemas"]["Aviso"][];
            nombre: string;
            nif: string;
            domicilio: string | null;
            cp: string | null;
            municipio: string | null;
            provincia: string | null;
            pais: string | null;
            lado: ("cargador" | "transportista" | "ambos") | null;
        };
        AgendaVehiculo: {
            id: number;
            /** @description DeCAs en que ha aparecido */
            usos: number;
            /** @description Última vez que apareció en una DeCA (ISO 8601); null si solo se guardó a mano */
            ultimo_uso: string | null;
            /** @description Lo que hay que revisar (un NIF con el carácter de control mal, `nif_dudoso`): una entrada con avisos no se sugiere hasta corregirla */
            avisos: components["schemas"]["Aviso"][];
            matricula: string;
            matricula_remolque: string | null;
            tipo_vehiculo: ("rigido" | "articulado") | null;
            autorizacion_especial: string | null;
            conductor_nombre: string | null;
            conductor_tel: string | null;
        };
        AgendaLugar: {
            id: number;
            /** @description DeCAs en que ha aparecido */
            usos: number;
            /** @description Última vez que apareció en una DeCA (ISO 8601); null si solo se guardó a mano */
            ultimo_uso: string | null;
            /** @description Lo que hay que revisar (un NIF con el carácter de control mal, `nif_dudoso`): una entrada con avisos no se sugiere hasta corregirla */
            avisos: components["schemas"]["Aviso"][];
            texto: string;
        };
        AgendaEliminada: {
            /** @constant */
            eliminada: true;
            id: number;
        };
        Webhook: {
            id: number;
            url: string;
            eventos: string[];
            descripcion: string | null;
            activo: boolean;
            /** @description Por qué está pausado, si lo pausó el servicio (410 Gone, fallos durante 5 días) o se pausó a mano */
            pausa_motivo: string | null;
            pausado_at: string | null;
            /** @description Primera entrega fallida desde la última correcta */
            fallando_desde: string | null;
            /** @description Inicio del secreto, para reconocerlo */
            secreto_prefijo: string;
            /** @description AAAA-MM-DD HH:MM:SS, hora de Madrid */
            created_at: string;
        };
        Entrega: {
            /** @description Igual a X-Deca-Entrega y al id del cuerpo */
            id: string;
            /** @enum {string} */
            evento: "deca.creado" | "deca.emitido" | "deca.modificado" | "deca.sustituido" | "deca.completado" | "deca.fin_servicio" | "deca.descargado" | "deca.control" | "deca.entregado" | "deca.entrega_rechazada" | "ping";
            deca_id: number | null;
            /** @description Número de la DeCA del evento (null en un ping) */
            deca_numero: string | null;
            /** @description AAAA-MM-DD HH:MM:SS, hora de Madrid */
            creado_at: string;
            /** @enum {string} */
            estado: "pendiente" | "entregada" | "fallida";
            /** @description Intentos hechos */
            intento: number;
            ultimo_intento_at: string | null;
            status: number | null;
            error: string | null;
            duracion_ms: number | null;
            proximo_intento_at: string | null;
            intentos: components["schemas"]["IntentoEntrega"][];
        };
        IntentoEntrega: {
            numero: number;
            /** @description AAAA-MM-DD HH:MM:SS, hora de Madrid */
            at: string;
            /** @description Código HTTP de la respuesta, o null si no la hubo */
            status: number | null;
            /** @description Error de red, tiempo agotado o destino no permitido */
            error: string | null;
            duracion_ms: number;
            proximo_intento_at: string | null;
            /** @description Reenvío a mano o prueba */
            manual: boolean;
        };
        DecaOutput: {
            id: number;
            numero: string;
            /** @enum {string} */
            estado: "pendiente" | "emitido" | "sustituido";
            version: number;
            ref_externa: string | null;
            /**
             * @description Lado de la DeCA que ocupa la cuenta
             * @enum {string}
             */
            emisor_rol: "transportista" | "cargador";
            /** @enum {string} */
            canal: "api" | "web" | "mcp" | "importacion";
            cargador_nombre: string | null;
            cargador_nif: string | null;
            cargador_domicilio: string | null;
            transp_nombre: string | null;
            transp_nif: string | null;
            transp_domicilio: string | null;
            cargador_cp: string | null;
            cargador_municipio: string | null;
            cargador_provincia: string | null;
            cargador_pais: string | null;
            transp_cp: string | null;
            transp_municipio: string | null;
            transp_provincia: string | null;
            transp_pais: string | null;
            fecha_transporte: string | null;
            tipo_vehiculo: ("rigido" | "articulado") | null;
            matricula: string | null;
            matricula_remolque: string | null;
            matricula_pais: string | null;
            remolque_pais: string | null;
            autorizacion_especial: string | null;
            conductor_nombre: string | null;
            conductor_tel: string | null;
            observaciones: string | null;
            referencia: string | null;
            envios: components["schemas"]["EnvioOutput"][];
            urls: components["schemas"]["DecaUrlsOutput"];
            pdf_sha256: string | null;
            pdf_bytes: number | null;
            emitido_at: string | null;
            /** @description Último cambio (creación incluida): lo que filtra modificado_desde */
            modificado_at: string;
            /** @description AAAA-MM-DD HH:MM:SS, hora de Madrid */
            created_at: string;
            fin_servicio_at: string | null;
            sustituye_a: components["schemas"]["DecaRefOutput"] | null;
            sustituido_por: components["schemas"]["DecaRefOutput"] | null;
            archivado: boolean;
            descargas: number;
            /** @description Extensión: emitida sin cobertura en un dispositivo; null si no */
            emision_offline: {
                /** @description Nombre del dispositivo que la emitió */
                dispositivo: string;
                /** @description Hora del dispositivo al emitirla (la del PDF) */
                emitida_at: string;
                /** @description Cuando la recibió el servidor */
                recibida_at: string;
            } | null;
        };
        EnvioOutput: {
            origen: string | null;
            destino: string | null;
            naturaleza: string | null;
            peso: number | null;
            /**
             * @description Unidad de la cantidad; por defecto kg
             * @enum {string}
             */
            unidad: "kg" | "t" | "m3" | "l" | "palets" | "bultos" | "unidades" | "contenedores";
            nota: string | null;
            /** @description Extensión (eFTI): destinatario de este envío; null si no se indicó */
            destinatario_nombre: string | null;
            /** @description Extensión (eFTI): NIF del destinatario; null si no se indicó */
            destinatario_nif: string | null;
        };
        DecaUrlsOutput: {
            pdf: string;
            qr_png: string;
            conductor: string;
            completar: string | null;
            ficha: string;
        };
        DecaRefOutput: {
            id: number;
            numero: string;
            ficha: string;
        };
        /** @description La firma del destinatario como trazos vectoriales */
        FirmaEntregaOutput: {
            /** @description Ancho / alto del recuadro donde se firmó (p. ej. 2.5) */
            proporcion: number;
            /** @description Cada trazo (dedo apoyado hasta levantarlo) como lista de puntos, ya suavizados */
            trazos: number[][][];
        };
        /** @description Dónde estaba el teléfono, solo si el conductor lo permitió */
        PosicionEntregaOutput: {
            lat: number;
            lon: number;
            /** @description Radio de precisión en metros, si el dispositivo lo da */
            precision_m?: number;
        };
    };
    responses: {
        /** @description Cuerpo que no es JSON o petición mal formada. Códigos: `json_invalido`, `peticion_invalida`. */
        PeticionMalFormada: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "codigo": "json_invalido",
                 *         "mensaje": "Explicación en español de lo que ha pasado y qué hacer.",
                 *         "campos": {},
                 *         "avisos": [],
                 *         "request_id": "req_01JD…"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Sin clave, clave desconocida o revocada. Códigos: `no_autenticado`. */
        NoAutenticado: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "codigo": "no_autenticado",
                 *         "mensaje": "Explicación en español de lo que ha pasado y qué hacer.",
                 *         "campos": {},
                 *         "avisos": [],
                 *         "request_id": "req_01JD…"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description La clave es de solo lectura, o la acción no está permitida. Códigos: `solo_lectura`, `sin_longitud`, `csrf`, `prohibido`. */
        SinPermiso: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                /** @description Peticiones por minuto que admite la clave */
                "RateLimit-Limit"?: number;
                /** @description Peticiones que quedan en la ventana actual */
                "RateLimit-Remaining"?: number;
                /** @description Segundos hasta que la ventana se renueva */
                "RateLimit-Reset"?: number;
                /** @description Lo mismo como campo del borrador IETF httpapi-ratelimit-headers: `"minuto";r=<quedan>;t=<segundos>` */
                RateLimit?: string;
                /** @description La política del límite (borrador IETF): `"minuto";q=<peticiones>;w=<segundos>` */
                "RateLimit-Policy"?: string;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "codigo": "solo_lectura",
                 *         "mensaje": "Explicación en español de lo que ha pasado y qué hacer.",
                 *         "campos": {},
                 *         "avisos": [],
                 *         "request_id": "req_01JD…"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No existe en esta cuenta y entorno. Códigos: `no_encontrado`. */
        NoEncontrado: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "codigo": "no_encontrado",
                 *         "mensaje": "Explicación en español de lo que ha pasado y qué hacer.",
                 *         "campos": {},
                 *         "avisos": [],
                 *         "request_id": "req_01JD…"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description El estado no permite la acción: los códigos que puede devolver cada operación, en su descripción. `en_curso` y `conflicto` se resuelven solos: reintente tras `Retry-After`. */
        Conflicto: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "codigo": "conflicto",
                 *         "mensaje": "Explicación en español de lo que ha pasado y qué hacer.",
                 *         "campos": {},
                 *         "avisos": [],
                 *         "request_id": "req_01JD…"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description El cuerpo supera el límite. Códigos: `demasiado_grande`. */
        DemasiadoGrande: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "codigo": "demasiado_grande",
                 *         "mensaje": "Explicación en español de lo que ha pasado y qué hacer.",
                 *         "campos": {},
                 *         "avisos": [],
                 *         "request_id": "req_01JD…"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Datos no válidos: `campos` nombra cada uno. Códigos: `validacion`, `falta_motivo`. */
        Validacion: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "codigo": "validacion",
                 *         "mensaje": "Explicación en español de lo que ha pasado y qué hacer.",
                 *         "campos": {
                 *           "matricula": "Obligatorio"
                 *         },
                 *         "avisos": [],
                 *         "request_id": "req_01JD…"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Límite por minuto (cabecera `Retry-After`) o del plan. Códigos: `demasiadas_peticiones`, `limite_plan`. */
        DemasiadasPeticiones: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "codigo": "demasiadas_peticiones",
                 *         "mensaje": "Explicación en español de lo que ha pasado y qué hacer.",
                 *         "campos": {},
                 *         "avisos": [],
                 *         "request_id": "req_01JD…"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description La base de datos no está al alcance ahora mismo (conexión perdida o rechazada): nada se ha guardado, salvo que el mensaje diga que no se sabe; reintente tras `Retry-After` con la misma `Idempotency-Key`. Extensión de este servicio. Códigos: `no_disponible`. */
        NoDisponible: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                /** @description Peticiones por minuto que admite la clave */
                "RateLimit-Limit"?: number;
                /** @description Peticiones que quedan en la ventana actual */
                "RateLimit-Remaining"?: number;
                /** @description Segundos hasta que la ventana se renueva */
                "RateLimit-Reset"?: number;
                /** @description Lo mismo como campo del borrador IETF httpapi-ratelimit-headers: `"minuto";r=<quedan>;t=<segundos>` */
                RateLimit?: string;
                /** @description La política del límite (borrador IETF): `"minuto";q=<peticiones>;w=<segundos>` */
                "RateLimit-Policy"?: string;
                /** @description Segundos que esperar antes de reintentar: en 429 `demasiadas_peticiones` (no en `limite_plan`), en 503 y en los 409 `en_curso` y `conflicto`, que se resuelven solos */
                "Retry-After": number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "codigo": "no_disponible",
                 *         "mensaje": "Explicación en español de lo que ha pasado y qué hacer.",
                 *         "campos": {},
                 *         "avisos": [],
                 *         "request_id": "req_01JD…"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Identificador de esta petición, el mismo que `error.request_id`: cítelo si escribe a soporte */
        "X-Request-Id": string;
        /** @description Peticiones por minuto que admite la clave */
        "RateLimit-Limit": number;
        /** @description Peticiones que quedan en la ventana actual */
        "RateLimit-Remaining": number;
        /** @description Segundos hasta que la ventana se renueva */
        "RateLimit-Reset": number;
        /** @description Lo mismo como campo del borrador IETF httpapi-ratelimit-headers: `"minuto";r=<quedan>;t=<segundos>` */
        RateLimit: string;
        /** @description La política del límite (borrador IETF): `"minuto";q=<peticiones>;w=<segundos>` */
        "RateLimit-Policy": string;
        /** @description Segundos que esperar antes de reintentar: en 429 `demasiadas_peticiones` (no en `limite_plan`), en 503 y en los 409 `en_curso` y `conflicto`, que se resuelven solos */
        "Retry-After": number;
        /** @description `true` cuando la respuesta repite la de una petición anterior con la misma `Idempotency-Key` (o, al crear, la misma `ref_externa`): no se ha vuelto a hacer nada */
        "Idempotent-Replayed": "true";
        /** @description URL del recurso creado */
        Location: string;
        /** @description Etiqueta de esta versión del documento: su SHA-256 en hexadecimal, entre comillas */
        ETag: string;
        /** @description Nombre con el que guardar el archivo */
        "Content-Disposition": string;
        /** @description UIL del conjunto de datos eFTI, 1.ª parte: la pasarela nacional (EFTI_GATE_ID) */
        "Efti-Gate-Id": string;
        /** @description UIL, 2.ª parte: esta plataforma (EFTI_PLATFORM_ID) */
        "Efti-Platform-Id": string;
        /** @description UIL, 3.ª parte: el conjunto de datos; el mismo en todas las versiones de la DeCA y en las que la sustituyen */
        "Efti-Dataset-Id": string;
        /** @description Los subconjuntos eFTI (Reglamento Delegado (UE) 2024/2024) cuyos datos lleva, separados por comas */
        "Efti-Subsets": string;
        /** @description El esquema que pide la API (RFC 6750): `Bearer` con el entorno en `realm`, y `error="invalid_token"` si llegó una clave que aquí no vale (desconocida, revocada o del otro entorno) */
        "WWW-Authenticate": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listar_decas: {
        parameters: {
            query?: {
                estado?: "pendiente" | "emitido" | "sustituido";
                /** @description Fecha de transporte desde (incluida) */
                desde?: string;
                /** @description Fecha de transporte hasta (incluida) */
                hasta?: string;
                ref_externa?: string;
                /** @description Matrícula del vehículo o del remolque */
                matricula?: string;
                /** @description Extensión: parte de la matrícula del vehículo o del remolque, sin contar espacios ni guiones («34bc» encuentra 1234 BCD) */
                matricula_contiene?: string;
                /** @description Solo las cambiadas desde ese instante (hora de Madrid si no lleva zona) */
                modificado_desde?: string;
                /** @description Extensión: filtrar por archivadas (true) o no archivadas (false) */
                archivado?: "0" | "1" | "true" | "false";
                /** @description Extensión: texto libre, como el buscador de la aplicación: parte del número, la ref_externa, la referencia, el cargador, el transportista, el conductor, una matrícula, o el origen, destino o mercancía de un envío (sin distinguir mayúsculas) */
                q?: string;
                limite?: number;
                /** @description El valor «siguiente» de la página anterior */
                despues_de?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Una página de DeCA; `siguiente` lleva a la próxima */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        decas: components["schemas"]["DecaOutput"][];
                        /** @description Pásalo como despues_de para la página siguiente; null si no hay más */
                        siguiente: string | null;
                    };
                };
            };
            401: components["responses"]["NoAutenticado"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    crear_deca: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "ref_externa": "PED-2026-0042",
                 *       "fecha_transporte": "2026-11-25",
                 *       "cargador_nombre": "Frutas Peñalara, S.A.",
                 *       "cargador_nif": "A58818501",
                 *       "cargador_domicilio": "Camí Vell 3, 25001 Lleida",
                 *       "matricula": "1234 BCD",
                 *       "matricula_remolque": "R-5678-BBC",
                 *       "conductor_nombre": "José Ángel Muñoz",
                 *       "envios": [
                 *         {
                 *           "origen": "Lleida",
                 *           "destino": "Mercamálaga, Málaga",
                 *           "naturaleza": "Fruta de hueso en palés",
                 *           "peso": 18250,
                 *           "unidad": "kg"
                 *         }
                 *       ],
                 *       "emitir": true
                 *     }
                 */
                "application/json": components["schemas"]["DecaInput"];
            };
        };
        responses: {
            /** @description Repetición de una petición con la misma `Idempotency-Key` o `ref_externa` (`Idempotent-Replayed: true`, con `Location`), o `solo_validar` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    /** @description URL del recurso creado */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deca: components["schemas"]["DecaOutput"];
                        avisos: components["schemas"]["Aviso"][];
                    } | {
                        valida: boolean;
                        lista_para_emitir: boolean;
                        faltan: {
                            [key: string]: string;
                        };
                        datos: {
                            [key: string]: unknown;
                        };
                        avisos: components["schemas"]["Aviso"][];
                    };
                };
            };
            /** @description Creada (y emitida si `emitir` y está completa); cabecera `Location` */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deca: components["schemas"]["DecaOutput"];
                        avisos: components["schemas"]["Aviso"][];
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    ver_deca: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description La DeCA */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deca: components["schemas"]["DecaOutput"];
                    };
                };
            };
            401: components["responses"]["NoAutenticado"];
            404: components["responses"]["NoEncontrado"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    eliminar_deca: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Eliminada */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        eliminada: true;
                        id: number;
                        numero: string;
                    };
                };
            };
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    modificar_deca: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DecaPatch"];
            };
        };
        responses: {
            /** @description La DeCA modificada (nueva versión si estaba emitida) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deca: components["schemas"]["DecaOutput"];
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    emitir_deca: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["Vacio"];
            };
        };
        responses: {
            /** @description Emitida: número, PDF y QR */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deca: components["schemas"]["DecaOutput"];
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    sustituir_deca: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SustituirInput"];
            };
        };
        responses: {
            /** @description La DeCA nueva, con otro número */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deca: components["schemas"]["DecaOutput"];
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    fin_servicio: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["Vacio"];
            };
        };
        responses: {
            /** @description La DeCA con `fin_servicio_at` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deca: components["schemas"]["DecaOutput"];
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    archivar_deca: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    archivado: boolean;
                };
            };
        };
        responses: {
            /** @description La DeCA con `archivado` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deca: components["schemas"]["DecaOutput"];
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    historial_deca: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cada cambio con su autor, canal y campos (antes → después) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        cambios: components["schemas"]["Cambio"][];
                    };
                };
            };
            401: components["responses"]["NoAutenticado"];
            404: components["responses"]["NoEncontrado"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    descargas_deca: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Quién abrió la ficha, el PDF o el QR, sin robots */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        descargas: components["schemas"]["Descarga"][];
                    };
                };
            };
            401: components["responses"]["NoAutenticado"];
            404: components["responses"]["NoEncontrado"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    pdf_deca: {
        parameters: {
            query?: never;
            header?: {
                /** @description El `ETag` de la copia que ya tiene (o varios, separados por comas, o `*`): si coincide, 304 sin cuerpo */
                "If-None-Match"?: string;
            };
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description El PDF/A de la última versión, sellado; `ETag` = su SHA-256 */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description No ha cambiado: `If-None-Match` coincide con su `ETag` (o es `*`). Sin cuerpo; use la copia que ya tiene */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["NoAutenticado"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    qr_deca: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description El QR de la ficha pública, en PNG */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                };
            };
            401: components["responses"]["NoAutenticado"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    efti_deca: {
        parameters: {
            query?: {
                /** @description Número de versión emitida (1, 2…); por defecto, la vigente */
                version?: number;
            };
            header?: {
                /** @description El `ETag` de la copia que ya tiene (o varios, separados por comas, o `*`): si coincide, 304 sin cuerpo */
                "If-None-Match"?: string;
            };
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Una versión emitida de la DeCA (la vigente, o la de `version`) como conjunto de datos eFTI (Reglamento (UE) 2020/1056): el elemento `consignment` del esquema `consignment-common.xsd` de la implementación de referencia de la UE, escrito con lo que imprimió el PDF de esa versión. Su UIL va en las cabeceras `Efti-Gate-Id`, `Efti-Platform-Id` y `Efti-Dataset-Id`: el mismo en todas las versiones de la DeCA y en las DeCA que la sustituyen. Qué dato va en qué elemento: docs/efti.md */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Efti-Gate-Id": components["headers"]["Efti-Gate-Id"];
                    "Efti-Platform-Id": components["headers"]["Efti-Platform-Id"];
                    "Efti-Dataset-Id": components["headers"]["Efti-Dataset-Id"];
                    "Efti-Subsets": components["headers"]["Efti-Subsets"];
                    ETag: components["headers"]["ETag"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/xml": string;
                };
            };
            /** @description No ha cambiado: `If-None-Match` coincide con su `ETag` (o es `*`). Sin cuerpo; use la copia que ya tiene */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Efti-Gate-Id": components["headers"]["Efti-Gate-Id"];
                    "Efti-Platform-Id": components["headers"]["Efti-Platform-Id"];
                    "Efti-Dataset-Id": components["headers"]["Efti-Dataset-Id"];
                    "Efti-Subsets": components["headers"]["Efti-Subsets"];
                    ETag: components["headers"]["ETag"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["NoAutenticado"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    foto_deca: {
        parameters: {
            query?: never;
            header?: {
                /** @description El `ETag` de la copia que ya tiene (o varios, separados por comas, o `*`): si coincide, 304 sin cuerpo */
                "If-None-Match"?: string;
            };
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description La foto del albarán con la que se creó la DeCA (`foto_id` de POST /fotos), tal como llegó, con su tipo (JPEG, PNG, WebP o HEIF); `ETag` = su SHA-256. Solo con la clave o la sesión de la cuenta: nunca sale en la ficha pública. 404 si la DeCA no se hizo con una foto */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    "image/*": string;
                };
            };
            /** @description No ha cambiado: `If-None-Match` coincide con su `ETag` (o es `*`). Sin cuerpo; use la copia que ya tiene */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["NoAutenticado"];
            404: components["responses"]["NoEncontrado"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    pedir_datos: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email?: string;
                };
            };
        };
        responses: {
            /** @description El enlace para completar (y el correo, si se dio) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Enlace para que la otra parte complete sus datos */
                        completar: string;
                        /** @description Correo al que se envió el enlace, o null */
                        enviado_a: string | null;
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    enviar_deca: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                };
            };
        };
        responses: {
            /** @description Correo encolado con el PDF, y el texto para el conductor */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        enviado_a: string;
                        /** @description Página del conductor con el PDF y el QR */
                        conductor: string;
                        /** @description Texto corto para la aplicación de mensajería del conductor */
                        texto: string;
                        whatsapp_url: string;
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    control_carretera: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Código numérico que el agente da al conductor */
                    codigo: string;
                };
            };
        };
        responses: {
            /** @description El control anotado y dónde enviar el PDF/A */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deca: components["schemas"]["DecaOutput"];
                        control: components["schemas"]["ControlCarretera"];
                        /** @description Sede electrónica del Ministerio a la que enviar el PDF/A con el código */
                        sede_url: string;
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    ver_entregas: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cada entrega o rechazo anotado, del primero al último */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EntregasDecaList"];
                };
            };
            401: components["responses"]["NoAutenticado"];
            404: components["responses"]["NoEncontrado"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    entregar_deca: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EntregaDecaInput"];
            };
        };
        responses: {
            /** @description La entrega anotada; `avisos` si el DNI o NIE no cuadra */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EntregaDecaCreada"];
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    pdf_entrega: {
        parameters: {
            query?: never;
            header?: {
                /** @description El `ETag` de la copia que ya tiene (o varios, separados por comas, o `*`): si coincide, 304 sin cuerpo */
                "If-None-Match"?: string;
            };
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
                /** @description Número de la entrega en su DeCA (`n`, 1 la primera) */
                n: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description El justificante de la entrega: PDF/A sellado con el sello del servicio, la firma en vectores, las fotos en miniatura y un QR a su página de verificación; `ETag` = su SHA-256 */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description No ha cambiado: `If-None-Match` coincide con su `ETag` (o es `*`). Sin cuerpo; use la copia que ya tiene */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["NoAutenticado"];
            404: components["responses"]["NoEncontrado"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    firma_entrega: {
        parameters: {
            query?: never;
            header?: {
                /** @description El `ETag` de la copia que ya tiene (o varios, separados por comas, o `*`): si coincide, 304 sin cuerpo */
                "If-None-Match"?: string;
            };
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
                /** @description Número de la entrega en su DeCA (`n`, 1 la primera) */
                n: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description La firma de quien recibió (o rechazó) como imagen PNG de 800 px de ancho sobre fondo transparente, dibujada de sus trazos; `ETag` = su SHA-256. 404 si la entrega no tiene firma */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                };
            };
            /** @description No ha cambiado: `If-None-Match` coincide con su `ETag` (o es `*`). Sin cuerpo; use la copia que ya tiene */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["NoAutenticado"];
            404: components["responses"]["NoEncontrado"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    pedir_firma_remota: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "envio": 0
                 *     }
                 */
                "application/json": components["schemas"]["FirmaRemotaInput"];
            };
        };
        responses: {
            /** @description Un enlace de un solo uso, válido 30 minutos, que el destinatario abre en su móvil (sin cuenta) para firmar la entrega: muéstrelo como QR. Uno nuevo para el mismo envío anula el anterior. Cabecera `Location`: dónde consultar si ya firmó */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FirmaRemotaRespuesta"];
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    ver_firma_remota: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
                /** @description Id del enlace (`firma_remota.id`) */
                solicitud: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Si el destinatario ya firmó (con la entrega), si espera o si el enlace caducó */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FirmaRemotaRespuesta"];
                };
            };
            401: components["responses"]["NoAutenticado"];
            404: components["responses"]["NoEncontrado"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    anular_firma_remota: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id numérico o número AAAA-NNNNNN de la DeCA */
                id: string;
                /** @description Id del enlace (`firma_remota.id`) */
                solicitud: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["Vacio"];
            };
        };
        responses: {
            /** @description El enlace anulado (`estado: anulada`); si ya se firmó, `firmada` con la entrega, que no se deshace */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FirmaRemotaRespuesta"];
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    documentos_camino: {
        parameters: {
            query?: {
                tengo?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Las DeCA emitidas de ±7 días, para guardarlas sin conexión */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description La fecha del servidor (Madrid), YYYY-MM-DD */
                        hoy: string;
                        desde: string;
                        hasta: string;
                        documentos: {
                            deca: components["schemas"]["DecaOutput"];
                            /** @description PDF vigente en base64; null si el dispositivo ya tiene esta versión */
                            pdf: string | null;
                            /** @description QR (PNG) en base64; null si el dispositivo ya tiene esta versión */
                            qr: string | null;
                        }[];
                    };
                };
            };
            401: components["responses"]["NoAutenticado"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    ver_cuenta: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Empresa, plan y cuota del mes del entorno */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        cuenta: {
                            id: number;
                            nombre: string;
                            nif: string;
                            domicilio: string | null;
                            /**
                             * @description Lado de la DeCA que ocupa la cuenta
                             * @enum {string}
                             */
                            rol: "transportista" | "cargador";
                            /** @enum {string} */
                            plan: "free" | "pro";
                            created_at: string;
                            /** @description Correo de la cuenta confirmado; sin confirmar solo se emiten unas pocas DeCA reales y no se crean claves de producción */
                            confirmada: boolean;
                            /** @enum {string} */
                            entorno: "produccion" | "pruebas";
                            cuota: {
                                /** @description Mes en curso, YYYY-MM (hora de Madrid) */
                                periodo: string;
                                /** @description DeCA por mes; null = sin límite */
                                limite: number | null;
                                /** @description DeCA creadas este mes en este entorno */
                                usadas: number;
                                restantes: number | null;
                                /** @description Día en que empieza el siguiente periodo, YYYY-MM-DD */
                                reinicia: string;
                                /** @description Lecturas de fotos de albaranes (POST /fotos) este mes en este entorno */
                                fotos: {
                                    /** @description Lecturas de fotos por mes; null = sin límite */
                                    limite: number | null;
                                    usadas: number;
                                    restantes: number | null;
                                };
                            };
                        };
                    };
                };
            };
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    efti_accesos: {
        parameters: {
            query?: {
                /** @description Cuántos por página (1–100) */
                limite?: number;
                /** @description El valor «siguiente» de la página anterior */
                despues_de?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cada consulta de una pasarela eFTI (una autoridad de la UE) que devolvió DeCA de la cuenta, la más reciente primero: quién (la pasarela), cuándo, qué pidió (un UIL y sus subconjuntos, o una matrícula) y qué DeCA se le dieron; `siguiente` lleva a la próxima página. Ver docs/efti.md */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description El más reciente primero */
                        accesos: components["schemas"]["AccesoEfti"][];
                        /** @description Pásalo como despues_de para la página siguiente; null si no hay más */
                        siguiente: string | null;
                    };
                };
            };
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    buscar_agenda_empresas: {
        parameters: {
            query?: {
                /** @description Texto a buscar: nombre, NIF, matrícula o lugar, sin importar mayúsculas ni acentos */
                q?: string;
                limite?: number;
                /** @description El valor «siguiente» de la página anterior */
                despues_de?: string;
                /** @description 1: también las entradas con avisos (un NIF con el carácter de control mal), que por defecto no salen porque no se sugieren */
                con_avisos?: "0" | "1" | "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Empresas de la agenda, las más usadas primero */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Las más usadas primero; a igualdad, las usadas más recientemente */
                        entradas: (components["schemas"]["AgendaEmpresa"] | components["schemas"]["AgendaVehiculo"] | components["schemas"]["AgendaLugar"])[];
                        /** @description Pásalo como despues_de para la página siguiente; null si no hay más */
                        siguiente: string | null;
                    };
                };
            };
            401: components["responses"]["NoAutenticado"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    guardar_agenda_empresas: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AgendaEmpresaInput"];
            };
        };
        responses: {
            /** @description La entrada guardada */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entrada: components["schemas"]["AgendaEmpresa"];
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    buscar_agenda_vehiculos: {
        parameters: {
            query?: {
                /** @description Texto a buscar: nombre, NIF, matrícula o lugar, sin importar mayúsculas ni acentos */
                q?: string;
                limite?: number;
                /** @description El valor «siguiente» de la página anterior */
                despues_de?: string;
                /** @description 1: también las entradas con avisos (un NIF con el carácter de control mal), que por defecto no salen porque no se sugieren */
                con_avisos?: "0" | "1" | "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Vehículos de la agenda, las más usadas primero */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Las más usadas primero; a igualdad, las usadas más recientemente */
                        entradas: (components["schemas"]["AgendaEmpresa"] | components["schemas"]["AgendaVehiculo"] | components["schemas"]["AgendaLugar"])[];
                        /** @description Pásalo como despues_de para la página siguiente; null si no hay más */
                        siguiente: string | null;
                    };
                };
            };
            401: components["responses"]["NoAutenticado"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    guardar_agenda_vehiculos: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AgendaVehiculoInput"];
            };
        };
        responses: {
            /** @description La entrada guardada */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entrada: components["schemas"]["AgendaVehiculo"];
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    buscar_agenda_lugares: {
        parameters: {
            query?: {
                /** @description Texto a buscar: nombre, NIF, matrícula o lugar, sin importar mayúsculas ni acentos */
                q?: string;
                limite?: number;
                /** @description El valor «siguiente» de la página anterior */
                despues_de?: string;
                /** @description 1: también las entradas con avisos (un NIF con el carácter de control mal), que por defecto no salen porque no se sugieren */
                con_avisos?: "0" | "1" | "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Lugares de la agenda, las más usadas primero */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Las más usadas primero; a igualdad, las usadas más recientemente */
                        entradas: (components["schemas"]["AgendaEmpresa"] | components["schemas"]["AgendaVehiculo"] | components["schemas"]["AgendaLugar"])[];
                        /** @description Pásalo como despues_de para la página siguiente; null si no hay más */
                        siguiente: string | null;
                    };
                };
            };
            401: components["responses"]["NoAutenticado"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    guardar_agenda_lugares: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AgendaLugarInput"];
            };
        };
        responses: {
            /** @description La entrada guardada */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entrada: components["schemas"]["AgendaLugar"];
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    eliminar_agenda_empresas: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id de la entrada de la agenda (`id` de la búsqueda) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Borrada */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgendaEliminada"];
                };
            };
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    cambiar_agenda_empresas: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id de la entrada de la agenda (`id` de la búsqueda) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AgendaEmpresaPatch"];
            };
        };
        responses: {
            /** @description La entrada cambiada (sin `avisos` si se corrigió su NIF) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entrada: components["schemas"]["AgendaEmpresa"];
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    fusionar_agenda_empresas: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id de la entrada de la agenda (`id` de la búsqueda) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "otra": 42
                 *     }
                 */
                "application/json": components["schemas"]["AgendaFusionInput"];
            };
        };
        responses: {
            /** @description La entrada que queda, con sus datos y los usos de las dos */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entrada: components["schemas"]["AgendaEmpresa"];
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    eliminar_agenda_vehiculos: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id de la entrada de la agenda (`id` de la búsqueda) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Borrada */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgendaEliminada"];
                };
            };
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    cambiar_agenda_vehiculos: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id de la entrada de la agenda (`id` de la búsqueda) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AgendaVehiculoPatch"];
            };
        };
        responses: {
            /** @description La entrada cambiada (sin `avisos` si se corrigió su NIF) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entrada: components["schemas"]["AgendaVehiculo"];
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    fusionar_agenda_vehiculos: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id de la entrada de la agenda (`id` de la búsqueda) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "otra": 42
                 *     }
                 */
                "application/json": components["schemas"]["AgendaFusionInput"];
            };
        };
        responses: {
            /** @description La entrada que queda, con sus datos y los usos de las dos */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entrada: components["schemas"]["AgendaVehiculo"];
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    eliminar_agenda_lugares: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id de la entrada de la agenda (`id` de la búsqueda) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Borrada */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgendaEliminada"];
                };
            };
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    cambiar_agenda_lugares: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id de la entrada de la agenda (`id` de la búsqueda) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AgendaLugarPatch"];
            };
        };
        responses: {
            /** @description La entrada cambiada (sin `avisos` si se corrigió su NIF) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entrada: components["schemas"]["AgendaLugar"];
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    fusionar_agenda_lugares: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id de la entrada de la agenda (`id` de la búsqueda) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "otra": 42
                 *     }
                 */
                "application/json": components["schemas"]["AgendaFusionInput"];
            };
        };
        responses: {
            /** @description La entrada que queda, con sus datos y los usos de las dos */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entrada: components["schemas"]["AgendaLugar"];
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    importar_csv: {
        parameters: {
            query?: {
                /** @description 1: solo comprueba el archivo (errores y avisos de cada DeCA); no guarda nada */
                validar?: "0" | "1" | "true" | "false";
                /** @description 0: las DeCA quedan pendientes */
                emitir?: "0" | "1" | "true" | "false";
                /** @description 1: si alguna DeCA tiene errores no se guarda ninguna */
                todo_o_nada?: "0" | "1" | "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description El CSV (campo `csv` de un formulario, o el cuerpo entero), hasta 5 MB, UTF-8 o Windows-1252 */
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    csv: string;
                };
                "text/csv": string;
            };
        };
        responses: {
            /** @description Resultado por DeCA, con sus líneas y errores */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        validar: boolean;
                        creados: number;
                        repetidos: number;
                        /** @description DeCA con errores */
                        errores: number;
                        decas: {
                            lineas: number[];
                            ref_externa: string | null;
                            referencia: string | null;
                            /**
                             * @description creada; repetida (ya importada: no se crea otra); valida (con validar=1); error; no_guardada (todo_o_nada y otra DeCA falló)
                             * @enum {string}
                             */
                            resultado: "creada" | "repetida" | "valida" | "error" | "no_guardada";
                            id: number | null;
                            numero: string | null;
                            estado: string | null;
                            errores: {
                                /** @description Línea del archivo (la cabecera es la 1) */
                                linea: number;
                                columna: string | null;
                                mensaje: string;
                            }[];
                            /** @description Los de POST /decas para los mismos datos, también con validar=1 (p. ej. un NIF con la letra de control mal), y al importar una ref_externa ya importada con otros datos (no se cambia) */
                            avisos: components["schemas"]["Aviso"][];
                        }[];
                    };
                };
            };
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    exportar_csv: {
        parameters: {
            query?: {
                estado?: "pendiente" | "emitido" | "sustituido";
                /** @description Fecha de transporte desde (incluida) */
                desde?: string;
                /** @description Fecha de transporte hasta (incluida) */
                hasta?: string;
                ref_externa?: string;
                /** @description Matrícula del vehículo o del remolque */
                matricula?: string;
                /** @description Extensión: parte de la matrícula del vehículo o del remolque, sin contar espacios ni guiones («34bc» encuentra 1234 BCD) */
                matricula_contiene?: string;
                /** @description Solo las cambiadas desde ese instante (hora de Madrid si no lleva zona) */
                modificado_desde?: string;
                /** @description Extensión: filtrar por archivadas (true) o no archivadas (false) */
                archivado?: "0" | "1" | "true" | "false";
                /** @description Extensión: texto libre, como el buscador de la aplicación: parte del número, la ref_externa, la referencia, el cargador, el transportista, el conductor, una matrícula, o el origen, destino o mercancía de un envío (sin distinguir mayúsculas) */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Las DeCA del listado con los mismos filtros (q incluido), una fila por envío: las columnas de la importación y después numero, estado, version, emitido_at y fin_servicio_at (la importación no toma datos de ellas; numero agrupa las filas de una DeCA sin referencias) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    leer_albaran: {
        parameters: {
            query?: never;
            header?: {
                /** @description De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description La foto (JPEG, PNG, WebP o HEIC) en el campo `foto` (hasta 2 MB), o en JSON `imagen_base64` */
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    foto: string;
                };
                "application/json": {
                    /** @description La foto (JPEG, PNG, WebP o HEIC, hasta 2 MB) en base64, con o sin el prefijo data:image/…;base64, */
                    imagen_base64: string;
                };
            };
        };
        responses: {
            /** @description Propuesta de DeCA para revisar, con la confianza de cada campo; no se crea nada */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Datos de DeCA leídos, listos para POST /decas tras revisarlos */
                        propuesta: {
                            [key: string]: unknown;
                        };
                        /** @description Confianza de cada campo leído (envíos como envios[0].peso) */
                        confianza: {
                            [key: string]: number;
                        };
                        /** @description El texto reconocido */
                        texto: string;
                        /** @description Dónde se leyó cada campo en la foto (mismas claves que confianza): las cuatro esquinas de la línea, en fracciones del ancho y el alto de la foto tal como se ve (orientación EXIF aplicada), en el orden arriba-izquierda, arriba-derecha, abajo-derecha, abajo-izquierda */
                        zonas: {
                            [key: string]: number[][];
                        };
                        avisos: string[];
                        /** @description La foto, guardada tal como llegó: envíe este id como foto_id al crear la DeCA (POST /decas) y la foto queda con ella (GET /decas/{id}/foto). Si no se hace ninguna DeCA con ella, se borra a los 30 días */
                        foto_id: number;
                    };
                };
            };
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    listar_webhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Los webhooks del entorno */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhooks: components["schemas"]["Webhook"][];
                    };
                };
            };
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    crear_webhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookInput"];
            };
        };
        responses: {
            /** @description Creado; el secreto solo se muestra ahora; cabecera `Location` */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook: {
                            id: number;
                            url: string;
                            eventos: string[];
                            descripcion: string | null;
                            activo: boolean;
                            /** @description Por qué está pausado, si lo pausó el servicio (410 Gone, fallos durante 5 días) o se pausó a mano */
                            pausa_motivo: string | null;
                            pausado_at: string | null;
                            /** @description Primera entrega fallida desde la última correcta */
                            fallando_desde: string | null;
                            /** @description Inicio del secreto, para reconocerlo */
                            secreto_prefijo: string;
                            /** @description AAAA-MM-DD HH:MM:SS, hora de Madrid */
                            created_at: string;
                            /** @description Secreto de firma; solo se muestra ahora */
                            secreto: string;
                        };
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    ver_webhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id del webhook */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description El webhook */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook: components["schemas"]["Webhook"];
                    };
                };
            };
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    eliminar_webhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id del webhook */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Eliminado */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        eliminado: true;
                        id: number;
                    };
                };
            };
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    cambiar_webhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id del webhook */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPatch"];
            };
        };
        responses: {
            /** @description El webhook cambiado */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook: components["schemas"]["Webhook"];
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    entregas_webhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id del webhook */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cada entrega con su estado, intentos y próximo reintento */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entregas: components["schemas"]["Entrega"][];
                    };
                };
            };
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    probar_webhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id del webhook */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["Vacio"];
            };
        };
        responses: {
            /** @description El intento hecho ahora */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ok: boolean;
                        entrega: components["schemas"]["Entrega"];
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    reenviar_entrega: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id del webhook */
                id: string;
                /** @description Id de la entrega */
                entrega: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["Vacio"];
            };
        };
        responses: {
            /** @description El intento hecho ahora */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ok: boolean;
                        entrega: components["schemas"]["Entrega"];
                    };
                };
            };
            400: components["responses"]["PeticionMalFormada"];
            401: components["responses"]["NoAutenticado"];
            403: components["responses"]["SinPermiso"];
            404: components["responses"]["NoEncontrado"];
            409: components["responses"]["Conflicto"];
            413: components["responses"]["DemasiadoGrande"];
            422: components["responses"]["Validacion"];
            429: components["responses"]["DemasiadasPeticiones"];
            503: components["responses"]["NoDisponible"];
        };
    };
    recibir_deca_creado: {
        parameters: {
            query?: never;
            header: {
                /** @description El nombre del evento, el mismo que `evento` del cuerpo */
                "X-Deca-Evento": "deca.creado";
                /** @description Id de la entrega, el mismo en cada reintento e igual a `id` del cuerpo: úselo para no procesarla dos veces */
                "X-Deca-Entrega": string;
                /** @description `t=<segundos unix>,v1=<firma>`: la firma es el HMAC-SHA256 en hexadecimal, con el secreto del webhook (entero, `whsec_` incluido), de `t` + `.` + el cuerpo tal cual llega; compárela en tiempo constante y rechace un `t` a más de 300 s de su reloj */
                "X-Deca-Firma": string;
                /** @description Quién envía la entrega */
                "User-Agent": "DeCA-Webhooks/1.0";
                /** @description Standard Webhooks: el mismo valor que `X-Deca-Entrega` (igual en cada reintento) */
                "webhook-id": string;
                /** @description Standard Webhooks: segundos unix de este intento (el `t` de `X-Deca-Firma`) */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<firma>`, el HMAC-SHA256 en base64 de `webhook-id` + `.` + `webhook-timestamp` + `.` + el cuerpo, con la clave que el texto del secreto tras `whsec_` codifica en base64; la librería `standardwebhooks` la comprueba con el secreto tal cual se mostró */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayload"];
            };
        };
        responses: {
            /** @description El receptor ya no existe: la entrega falla y el webhook se pausa */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Recibida: no se vuelve a enviar */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Cualquier otra respuesta, o ninguna en 10 s: se reintenta */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    recibir_deca_emitido: {
        parameters: {
            query?: never;
            header: {
                /** @description El nombre del evento, el mismo que `evento` del cuerpo */
                "X-Deca-Evento": "deca.emitido";
                /** @description Id de la entrega, el mismo en cada reintento e igual a `id` del cuerpo: úselo para no procesarla dos veces */
                "X-Deca-Entrega": string;
                /** @description `t=<segundos unix>,v1=<firma>`: la firma es el HMAC-SHA256 en hexadecimal, con el secreto del webhook (entero, `whsec_` incluido), de `t` + `.` + el cuerpo tal cual llega; compárela en tiempo constante y rechace un `t` a más de 300 s de su reloj */
                "X-Deca-Firma": string;
                /** @description Quién envía la entrega */
                "User-Agent": "DeCA-Webhooks/1.0";
                /** @description Standard Webhooks: el mismo valor que `X-Deca-Entrega` (igual en cada reintento) */
                "webhook-id": string;
                /** @description Standard Webhooks: segundos unix de este intento (el `t` de `X-Deca-Firma`) */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<firma>`, el HMAC-SHA256 en base64 de `webhook-id` + `.` + `webhook-timestamp` + `.` + el cuerpo, con la clave que el texto del secreto tras `whsec_` codifica en base64; la librería `standardwebhooks` la comprueba con el secreto tal cual se mostró */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayload"];
            };
        };
        responses: {
            /** @description El receptor ya no existe: la entrega falla y el webhook se pausa */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Recibida: no se vuelve a enviar */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Cualquier otra respuesta, o ninguna en 10 s: se reintenta */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    recibir_deca_modificado: {
        parameters: {
            query?: never;
            header: {
                /** @description El nombre del evento, el mismo que `evento` del cuerpo */
                "X-Deca-Evento": "deca.modificado";
                /** @description Id de la entrega, el mismo en cada reintento e igual a `id` del cuerpo: úselo para no procesarla dos veces */
                "X-Deca-Entrega": string;
                /** @description `t=<segundos unix>,v1=<firma>`: la firma es el HMAC-SHA256 en hexadecimal, con el secreto del webhook (entero, `whsec_` incluido), de `t` + `.` + el cuerpo tal cual llega; compárela en tiempo constante y rechace un `t` a más de 300 s de su reloj */
                "X-Deca-Firma": string;
                /** @description Quién envía la entrega */
                "User-Agent": "DeCA-Webhooks/1.0";
                /** @description Standard Webhooks: el mismo valor que `X-Deca-Entrega` (igual en cada reintento) */
                "webhook-id": string;
                /** @description Standard Webhooks: segundos unix de este intento (el `t` de `X-Deca-Firma`) */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<firma>`, el HMAC-SHA256 en base64 de `webhook-id` + `.` + `webhook-timestamp` + `.` + el cuerpo, con la clave que el texto del secreto tras `whsec_` codifica en base64; la librería `standardwebhooks` la comprueba con el secreto tal cual se mostró */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayload"];
            };
        };
        responses: {
            /** @description El receptor ya no existe: la entrega falla y el webhook se pausa */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Recibida: no se vuelve a enviar */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Cualquier otra respuesta, o ninguna en 10 s: se reintenta */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    recibir_deca_sustituido: {
        parameters: {
            query?: never;
            header: {
                /** @description El nombre del evento, el mismo que `evento` del cuerpo */
                "X-Deca-Evento": "deca.sustituido";
                /** @description Id de la entrega, el mismo en cada reintento e igual a `id` del cuerpo: úselo para no procesarla dos veces */
                "X-Deca-Entrega": string;
                /** @description `t=<segundos unix>,v1=<firma>`: la firma es el HMAC-SHA256 en hexadecimal, con el secreto del webhook (entero, `whsec_` incluido), de `t` + `.` + el cuerpo tal cual llega; compárela en tiempo constante y rechace un `t` a más de 300 s de su reloj */
                "X-Deca-Firma": string;
                /** @description Quién envía la entrega */
                "User-Agent": "DeCA-Webhooks/1.0";
                /** @description Standard Webhooks: el mismo valor que `X-Deca-Entrega` (igual en cada reintento) */
                "webhook-id": string;
                /** @description Standard Webhooks: segundos unix de este intento (el `t` de `X-Deca-Firma`) */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<firma>`, el HMAC-SHA256 en base64 de `webhook-id` + `.` + `webhook-timestamp` + `.` + el cuerpo, con la clave que el texto del secreto tras `whsec_` codifica en base64; la librería `standardwebhooks` la comprueba con el secreto tal cual se mostró */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayload"];
            };
        };
        responses: {
            /** @description El receptor ya no existe: la entrega falla y el webhook se pausa */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Recibida: no se vuelve a enviar */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Cualquier otra respuesta, o ninguna en 10 s: se reintenta */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    recibir_deca_completado: {
        parameters: {
            query?: never;
            header: {
                /** @description El nombre del evento, el mismo que `evento` del cuerpo */
                "X-Deca-Evento": "deca.completado";
                /** @description Id de la entrega, el mismo en cada reintento e igual a `id` del cuerpo: úselo para no procesarla dos veces */
                "X-Deca-Entrega": string;
                /** @description `t=<segundos unix>,v1=<firma>`: la firma es el HMAC-SHA256 en hexadecimal, con el secreto del webhook (entero, `whsec_` incluido), de `t` + `.` + el cuerpo tal cual llega; compárela en tiempo constante y rechace un `t` a más de 300 s de su reloj */
                "X-Deca-Firma": string;
                /** @description Quién envía la entrega */
                "User-Agent": "DeCA-Webhooks/1.0";
                /** @description Standard Webhooks: el mismo valor que `X-Deca-Entrega` (igual en cada reintento) */
                "webhook-id": string;
                /** @description Standard Webhooks: segundos unix de este intento (el `t` de `X-Deca-Firma`) */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<firma>`, el HMAC-SHA256 en base64 de `webhook-id` + `.` + `webhook-timestamp` + `.` + el cuerpo, con la clave que el texto del secreto tras `whsec_` codifica en base64; la librería `standardwebhooks` la comprueba con el secreto tal cual se mostró */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayload"];
            };
        };
        responses: {
            /** @description El receptor ya no existe: la entrega falla y el webhook se pausa */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Recibida: no se vuelve a enviar */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Cualquier otra respuesta, o ninguna en 10 s: se reintenta */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    recibir_deca_fin_servicio: {
        parameters: {
            query?: never;
            header: {
                /** @description El nombre del evento, el mismo que `evento` del cuerpo */
                "X-Deca-Evento": "deca.fin_servicio";
                /** @description Id de la entrega, el mismo en cada reintento e igual a `id` del cuerpo: úselo para no procesarla dos veces */
                "X-Deca-Entrega": string;
                /** @description `t=<segundos unix>,v1=<firma>`: la firma es el HMAC-SHA256 en hexadecimal, con el secreto del webhook (entero, `whsec_` incluido), de `t` + `.` + el cuerpo tal cual llega; compárela en tiempo constante y rechace un `t` a más de 300 s de su reloj */
                "X-Deca-Firma": string;
                /** @description Quién envía la entrega */
                "User-Agent": "DeCA-Webhooks/1.0";
                /** @description Standard Webhooks: el mismo valor que `X-Deca-Entrega` (igual en cada reintento) */
                "webhook-id": string;
                /** @description Standard Webhooks: segundos unix de este intento (el `t` de `X-Deca-Firma`) */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<firma>`, el HMAC-SHA256 en base64 de `webhook-id` + `.` + `webhook-timestamp` + `.` + el cuerpo, con la clave que el texto del secreto tras `whsec_` codifica en base64; la librería `standardwebhooks` la comprueba con el secreto tal cual se mostró */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayload"];
            };
        };
        responses: {
            /** @description El receptor ya no existe: la entrega falla y el webhook se pausa */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Recibida: no se vuelve a enviar */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Cualquier otra respuesta, o ninguna en 10 s: se reintenta */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    recibir_deca_descargado: {
        parameters: {
            query?: never;
            header: {
                /** @description El nombre del evento, el mismo que `evento` del cuerpo */
                "X-Deca-Evento": "deca.descargado";
                /** @description Id de la entrega, el mismo en cada reintento e igual a `id` del cuerpo: úselo para no procesarla dos veces */
                "X-Deca-Entrega": string;
                /** @description `t=<segundos unix>,v1=<firma>`: la firma es el HMAC-SHA256 en hexadecimal, con el secreto del webhook (entero, `whsec_` incluido), de `t` + `.` + el cuerpo tal cual llega; compárela en tiempo constante y rechace un `t` a más de 300 s de su reloj */
                "X-Deca-Firma": string;
                /** @description Quién envía la entrega */
                "User-Agent": "DeCA-Webhooks/1.0";
                /** @description Standard Webhooks: el mismo valor que `X-Deca-Entrega` (igual en cada reintento) */
                "webhook-id": string;
                /** @description Standard Webhooks: segundos unix de este intento (el `t` de `X-Deca-Firma`) */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<firma>`, el HMAC-SHA256 en base64 de `webhook-id` + `.` + `webhook-timestamp` + `.` + el cuerpo, con la clave que el texto del secreto tras `whsec_` codifica en base64; la librería `standardwebhooks` la comprueba con el secreto tal cual se mostró */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayload"];
            };
        };
        responses: {
            /** @description El receptor ya no existe: la entrega falla y el webhook se pausa */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Recibida: no se vuelve a enviar */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Cualquier otra respuesta, o ninguna en 10 s: se reintenta */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    recibir_deca_control: {
        parameters: {
            query?: never;
            header: {
                /** @description El nombre del evento, el mismo que `evento` del cuerpo */
                "X-Deca-Evento": "deca.control";
                /** @description Id de la entrega, el mismo en cada reintento e igual a `id` del cuerpo: úselo para no procesarla dos veces */
                "X-Deca-Entrega": string;
                /** @description `t=<segundos unix>,v1=<firma>`: la firma es el HMAC-SHA256 en hexadecimal, con el secreto del webhook (entero, `whsec_` incluido), de `t` + `.` + el cuerpo tal cual llega; compárela en tiempo constante y rechace un `t` a más de 300 s de su reloj */
                "X-Deca-Firma": string;
                /** @description Quién envía la entrega */
                "User-Agent": "DeCA-Webhooks/1.0";
                /** @description Standard Webhooks: el mismo valor que `X-Deca-Entrega` (igual en cada reintento) */
                "webhook-id": string;
                /** @description Standard Webhooks: segundos unix de este intento (el `t` de `X-Deca-Firma`) */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<firma>`, el HMAC-SHA256 en base64 de `webhook-id` + `.` + `webhook-timestamp` + `.` + el cuerpo, con la clave que el texto del secreto tras `whsec_` codifica en base64; la librería `standardwebhooks` la comprueba con el secreto tal cual se mostró */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayload"];
            };
        };
        responses: {
            /** @description El receptor ya no existe: la entrega falla y el webhook se pausa */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Recibida: no se vuelve a enviar */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Cualquier otra respuesta, o ninguna en 10 s: se reintenta */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    recibir_deca_entregado: {
        parameters: {
            query?: never;
            header: {
                /** @description El nombre del evento, el mismo que `evento` del cuerpo */
                "X-Deca-Evento": "deca.entregado";
                /** @description Id de la entrega, el mismo en cada reintento e igual a `id` del cuerpo: úselo para no procesarla dos veces */
                "X-Deca-Entrega": string;
                /** @description `t=<segundos unix>,v1=<firma>`: la firma es el HMAC-SHA256 en hexadecimal, con el secreto del webhook (entero, `whsec_` incluido), de `t` + `.` + el cuerpo tal cual llega; compárela en tiempo constante y rechace un `t` a más de 300 s de su reloj */
                "X-Deca-Firma": string;
                /** @description Quién envía la entrega */
                "User-Agent": "DeCA-Webhooks/1.0";
                /** @description Standard Webhooks: el mismo valor que `X-Deca-Entrega` (igual en cada reintento) */
                "webhook-id": string;
                /** @description Standard Webhooks: segundos unix de este intento (el `t` de `X-Deca-Firma`) */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<firma>`, el HMAC-SHA256 en base64 de `webhook-id` + `.` + `webhook-timestamp` + `.` + el cuerpo, con la clave que el texto del secreto tras `whsec_` codifica en base64; la librería `standardwebhooks` la comprueba con el secreto tal cual se mostró */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayload"];
            };
        };
        responses: {
            /** @description El receptor ya no existe: la entrega falla y el webhook se pausa */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Recibida: no se vuelve a enviar */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Cualquier otra respuesta, o ninguna en 10 s: se reintenta */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    recibir_deca_entrega_rechazada: {
        parameters: {
            query?: never;
            header: {
                /** @description El nombre del evento, el mismo que `evento` del cuerpo */
                "X-Deca-Evento": "deca.entrega_rechazada";
                /** @description Id de la entrega, el mismo en cada reintento e igual a `id` del cuerpo: úselo para no procesarla dos veces */
                "X-Deca-Entrega": string;
                /** @description `t=<segundos unix>,v1=<firma>`: la firma es el HMAC-SHA256 en hexadecimal, con el secreto del webhook (entero, `whsec_` incluido), de `t` + `.` + el cuerpo tal cual llega; compárela en tiempo constante y rechace un `t` a más de 300 s de su reloj */
                "X-Deca-Firma": string;
                /** @description Quién envía la entrega */
                "User-Agent": "DeCA-Webhooks/1.0";
                /** @description Standard Webhooks: el mismo valor que `X-Deca-Entrega` (igual en cada reintento) */
                "webhook-id": string;
                /** @description Standard Webhooks: segundos unix de este intento (el `t` de `X-Deca-Firma`) */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<firma>`, el HMAC-SHA256 en base64 de `webhook-id` + `.` + `webhook-timestamp` + `.` + el cuerpo, con la clave que el texto del secreto tras `whsec_` codifica en base64; la librería `standardwebhooks` la comprueba con el secreto tal cual se mostró */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayload"];
            };
        };
        responses: {
            /** @description El receptor ya no existe: la entrega falla y el webhook se pausa */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Recibida: no se vuelve a enviar */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Cualquier otra respuesta, o ninguna en 10 s: se reintenta */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    recibir_ping: {
        parameters: {
            query?: never;
            header: {
                /** @description El nombre del evento, el mismo que `evento` del cuerpo */
                "X-Deca-Evento": "ping";
                /** @description Id de la entrega, el mismo en cada reintento e igual a `id` del cuerpo: úselo para no procesarla dos veces */
                "X-Deca-Entrega": string;
                /** @description `t=<segundos unix>,v1=<firma>`: la firma es el HMAC-SHA256 en hexadecimal, con el secreto del webhook (entero, `whsec_` incluido), de `t` + `.` + el cuerpo tal cual llega; compárela en tiempo constante y rechace un `t` a más de 300 s de su reloj */
                "X-Deca-Firma": string;
                /** @description Quién envía la entrega */
                "User-Agent": "DeCA-Webhooks/1.0";
                /** @description Standard Webhooks: el mismo valor que `X-Deca-Entrega` (igual en cada reintento) */
                "webhook-id": string;
                /** @description Standard Webhooks: segundos unix de este intento (el `t` de `X-Deca-Firma`) */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,<firma>`, el HMAC-SHA256 en base64 de `webhook-id` + `.` + `webhook-timestamp` + `.` + el cuerpo, con la clave que el texto del secreto tras `whsec_` codifica en base64; la librería `standardwebhooks` la comprueba con el secreto tal cual se mostró */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayload"];
            };
        };
        responses: {
            /** @description El receptor ya no existe: la entrega falla y el webhook se pausa */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Recibida: no se vuelve a enviar */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Cualquier otra respuesta, o ninguna en 10 s: se reintenta */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
