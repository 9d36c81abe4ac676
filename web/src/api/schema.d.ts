// Generated from the server's /openapi.json by `npm run gen:api` (scripts/gen-api-types.ts). Do not edit.
export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Health: checks the database */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ok";
                            database: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "unavailable";
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in to the console with email and password, or with an API key: sets the session cookie */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email?: string;
                        password?: string;
                        api_key?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            email: string;
                            /** @description send it as X-CSRF-Token with every request that changes data */
                            csrf_token: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sign-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out: ends the session on the server and clears the cookie */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in caller and, for a console session, its CSRF token */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            email: string;
                            user_id: number;
                            team_id: string;
                            role: string;
                            via: "session" | "api_key";
                            csrf_token?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set or change your password (with the session cookie, the current one is needed once one is set); ends your other sessions */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        password: string;
                        current_password?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/apikey": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your API key as it may be shown: its prefix and age (rotate it to see a new key once) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            has_key: boolean;
                            key_prefix?: string;
                            created_at?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create your API key when you have none (shown once; a user with a key rotates it instead: 409) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            api_key: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Revoke your API key at once (sign in to the console or ask `vigil users key` for a new one) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instance/team-creators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who may create teams besides the instance owner (instance owner only) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @description VIGIL_TEAM_CREATION: the grants count under allowed only */
                            mode: "owner" | "allowed" | "everyone";
                            users: {
                                email: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Allow a user to create teams (instance owner only) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Stop a user creating teams; teams they made stay theirs (instance owner only) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/team/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current team's settings: unsigned code and javascript templates, trusted signers */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @description the team's scans run code and javascript templates that no trusted key signed (default false: they are refused, counted in the scan log) */
                            allow_unsigned_templates: boolean;
                            /** @description common names of the trusted template-signing certificates: ProjectDiscovery's, then the operator's (VIGIL_TEMPLATE_CERTIFICATES) */
                            trusted_signers: string[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change the team settings (Owner only): whether unsigned code and javascript templates run */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        allow_unsigned_templates: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @description the team's scans run code and javascript templates that no trusted key signed (default false: they are refused, counted in the scan log) */
                            allow_unsigned_templates: boolean;
                            /** @description common names of the trusted template-signing certificates: ProjectDiscovery's, then the operator's (VIGIL_TEMPLATE_CERTIFICATES) */
                            trusted_signers: string[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/team/audit_log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's audit log: every change a person or key made, newest first */
        get: {
            parameters: {
                query?: {
                    email?: string;
                    action?: string;
                    start_date?: string;
                    end_date?: string;
                    /** @description current_month, last_month, last_3_months, last_6_months, last_12_months */
                    time_range?: string;
                    /** @description api, platform or unknown */
                    source?: string;
                    offset?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            data: {
                                created_at: string;
                                email: string;
                                /** @description METHOD /route, e.g. PATCH /v1/scans/vulns */
                                action: string;
                                /** @description the answer's HTTP status */
                                status: number;
                                method: string;
                                ip: string;
                                /** @description the path asked (no query string; credentials in it replaced) */
                                path: string;
                                /** @description api (API key), platform (console) or unknown */
                                source: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/team/audit_log/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search the audit log: a status code, source, IP, email, HTTP method, or text in the path */
        get: {
            parameters: {
                query: {
                    q: string;
                    offset?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            data: {
                                created_at: string;
                                email: string;
                                /** @description METHOD /route, e.g. PATCH /v1/scans/vulns */
                                action: string;
                                /** @description the answer's HTTP status */
                                status: number;
                                method: string;
                                ip: string;
                                /** @description the path asked (no query string; credentials in it replaced) */
                                path: string;
                                /** @description api (API key), platform (console) or unknown */
                                source: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who am I */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            email: string;
                            /** @description the user's name, or the email's local part when none is set (nuclei's key check reads it) */
                            name: string;
                            user_id: number;
                            team_id: string;
                            team_name?: string;
                            role: string;
                            is_team_owner: boolean;
                            is_read_only: boolean;
                            teams: {
                                id: string;
                                name: string;
                                role: string;
                            }[];
                            /** @description whether POST /v1/user/team is open to the caller (VIGIL_TEAM_CREATION, the instance owner's grants) */
                            can_create_team: boolean;
                            /** @description the first account: decides who may create teams */
                            is_instance_owner: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/apikey/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate API key: the old key stops working at once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            api_key: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/team/default-members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Members invited into every new team of this instance (instance owner only) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            members: {
                                email: string;
                                role: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Set (replace) the members invited into every new team (instance owner only) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        members: {
                            email: string;
                            /** @description ADMIN, MEMBER, VIEWER or GUEST */
                            role: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Remove one default team member (by email) or all of them (instance owner only) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email?: string;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/team": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Teams of the caller */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            name?: string;
                            workspaces: {
                                id: string;
                                name: string;
                                created_at: string;
                                member_count: number;
                                owner_email: string;
                                role: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create a workspace (team); the caller becomes its Owner. Open to the instance owner and, by VIGIL_TEAM_CREATION, the users it allowed or everyone */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            team_id: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Delete a team with all its data (its Owner only, once no other member is left) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        team_id: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Rename the current team (X-Team-Id or the default one) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/user/team/member": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List team members */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            max_team_members: number;
                            members: {
                                email: string;
                                status: string;
                                /** @description OWNER, ADMIN, MEMBER, VIEWER or GUEST */
                                role: string;
                                invited_at?: string;
                                accepted_at?: string;
                                last_sign_in?: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Add a team member (creates the account when new; a member who has not accepted yet gets a new invite) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        role?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @description one-time token redeemed at POST /v1/user/invite/accept: a new account sets its password there and gets its API key; an existing account accepts it signed in as itself. Shown only here */
                            invite_token: string;
                            invite_expires_at: string;
                            /** @description new: the link sets the account up; existing: the member signs in and accepts */
                            account: "new" | "existing";
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Remove a team member */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change a member's role (or, without role, accept your own team invite) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        /** @description ADMIN, MEMBER, VIEWER or GUEST (any letter case); the Owner role cannot be given or taken here */
                        role?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/user/invite/lookup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Whose invite a token is, to which team, and how it is accepted (the invite page asks before anything is done) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            email: string;
                            team_id: string;
                            team_name: string;
                            expires_at: string;
                            /** @description password: the account is set up with this invite (choose a password); sign_in: the account exists, sign in as it and then accept */
                            accept_with: "password" | "sign_in";
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/invite/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Redeem a team invite. A new account (made by the invite) sets its password here (and is signed in) and gets its API key once; an existing account accepts while signed in as itself (API key or session), and the invite never changes its password or key */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        token: string;
                        password?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            email: string;
                            team_id: string;
                            api_key?: string;
                            /** @description when a password was set: the new session's CSRF token */
                            csrf_token?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/template/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search templates with filtering, sorting and facets
         * @description q: free words (id, name, description, tags, author, vendor, product) and field:value filters (severity, tags, author, type, dir, vendor, product, is_new, is_early, template_type, cve, id), ANDed; a comma in a value means any of; -field:value negates.
         */
        get: {
            parameters: {
                query?: {
                    scope?: "public" | "private" | "public_private";
                    limit?: number;
                    offset?: number;
                    /** @description comma-separated Template record fields to return */
                    fields?: string;
                    /** @description comma-separated fields to sort ascending */
                    sort_asc?: string;
                    /** @description comma-separated fields to sort descending */
                    sort_desc?: string;
                    q?: string;
                    /** @description wrap matched words of name and description in <em></em> */
                    highlight?: boolean;
                    facet_size?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            results: {
                                /** @description path in the public catalogue, or the private template id */
                                uri?: string;
                                /** @description the template's own id */
                                id?: string;
                                name?: string;
                                author?: string[];
                                tags?: string[];
                                severity?: string;
                                /** @description protocol: http, dns, tcp, ssl, file, headless, code, javascript, workflow */
                                type?: string;
                                dir?: string;
                                /** @description git commit of the catalogue checkout */
                                ref?: string;
                                vendor?: string;
                                product?: string;
                                classification?: {
                                    "cve-id"?: string[];
                                    "cwe-id"?: string[];
                                    "cvss-metrics"?: string;
                                    "cvss-score"?: number;
                                    "epss-score"?: number;
                                    "epss-percentile"?: number;
                                    cpe?: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                metadata?: {
                                    [key: string]: unknown;
                                };
                                /** @description sha256 of raw */
                                digest?: string;
                                /** Format: date-time */
                                created_at?: string;
                                /** Format: date-time */
                                updated_at?: string;
                                release_tag?: string;
                                is_early?: boolean;
                                /** @description template source text */
                                raw?: string;
                                template_id?: string;
                                description?: string;
                                filename?: string;
                                impact?: string;
                                ai_meta?: {
                                    model_used?: string;
                                    is_prompt_by_human?: boolean;
                                    is_template_by_human?: boolean;
                                    prompt?: string;
                                };
                                references?: string[];
                                /** @description public, user or shared */
                                template_type?: string;
                                is_draft?: boolean;
                                is_github?: boolean;
                                is_new?: boolean;
                                is_svcteam?: boolean;
                                remediation?: string;
                                /** @description whether a trusted key signed the template (its `# digest:` line): ProjectDiscovery's or a certificate in VIGIL_TEMPLATE_CERTIFICATES */
                                is_signed?: boolean;
                                /** @description the signer: the trusted certificate's common name, e.g. projectdiscovery/nuclei-templates */
                                signed_by?: string;
                            }[];
                            total: number;
                            count: number;
                            facets: {
                                is_new: {
                                    buckets: {
                                        [key: string]: number;
                                    };
                                    missing: number;
                                    other: number;
                                    total: number;
                                };
                                creation_stats: {
                                    buckets: {
                                        [key: string]: number;
                                    };
                                    missing: number;
                                    other: number;
                                    total: number;
                                };
                                author: {
                                    buckets: {
                                        [key: string]: number;
                                    };
                                    missing: number;
                                    other: number;
                                    total: number;
                                };
                                is_early: {
                                    buckets: {
                                        [key: string]: number;
                                    };
                                    missing: number;
                                    other: number;
                                    total: number;
                                };
                                dir: {
                                    buckets: {
                                        [key: string]: number;
                                    };
                                    missing: number;
                                    other: number;
                                    total: number;
                                };
                                product: {
                                    buckets: {
                                        [key: string]: number;
                                    };
                                    missing: number;
                                    other: number;
                                    total: number;
                                };
                                severity: {
                                    buckets: {
                                        [key: string]: number;
                                    };
                                    missing: number;
                                    other: number;
                                    total: number;
                                };
                                tags: {
                                    buckets: {
                                        [key: string]: number;
                                    };
                                    missing: number;
                                    other: number;
                                    total: number;
                                };
                                type: {
                                    buckets: {
                                        [key: string]: number;
                                    };
                                    missing: number;
                                    other: number;
                                    total: number;
                                };
                                vendor: {
                                    buckets: {
                                        [key: string]: number;
                                    };
                                    missing: number;
                                    other: number;
                                    total: number;
                                };
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/template": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's private templates */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    limit?: number;
                    /** @description comma-separated Template record fields to return */
                    fields?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            results: {
                                /** @description path in the public catalogue, or the private template id */
                                uri?: string;
                                /** @description the template's own id */
                                id?: string;
                                name?: string;
                                author?: string[];
                                tags?: string[];
                                severity?: string;
                                /** @description protocol: http, dns, tcp, ssl, file, headless, code, javascript, workflow */
                                type?: string;
                                dir?: string;
                                /** @description git commit of the catalogue checkout */
                                ref?: string;
                                vendor?: string;
                                product?: string;
                                classification?: {
                                    "cve-id"?: string[];
                                    "cwe-id"?: string[];
                                    "cvss-metrics"?: string;
                                    "cvss-score"?: number;
                                    "epss-score"?: number;
                                    "epss-percentile"?: number;
                                    cpe?: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                metadata?: {
                                    [key: string]: unknown;
                                };
                                /** @description sha256 of raw */
                                digest?: string;
                                /** Format: date-time */
                                created_at?: string;
                                /** Format: date-time */
                                updated_at?: string;
                                release_tag?: string;
                                is_early?: boolean;
                                /** @description template source text */
                                raw?: string;
                                template_id?: string;
                                description?: string;
                                filename?: string;
                                impact?: string;
                                ai_meta?: {
                                    model_used?: string;
                                    is_prompt_by_human?: boolean;
                                    is_template_by_human?: boolean;
                                    prompt?: string;
                                };
                                references?: string[];
                                /** @description public, user or shared */
                                template_type?: string;
                                is_draft?: boolean;
                                is_github?: boolean;
                                is_new?: boolean;
                                is_svcteam?: boolean;
                                remediation?: string;
                                /** @description whether a trusted key signed the template (its `# digest:` line): ProjectDiscovery's or a certificate in VIGIL_TEMPLATE_CERTIFICATES */
                                is_signed?: boolean;
                                /** @description the signer: the trusted certificate's common name, e.g. projectdiscovery/nuclei-templates */
                                signed_by?: string;
                            }[];
                            message: string;
                            count: number;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create a private template (the content must be a valid template) */
        post: {
            parameters: {
                query?: {
                    filename?: string;
                    dir?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description template text (YAML), at most 1 MiB */
                        template: string;
                        filename?: string;
                        dir?: string;
                        prompt?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            template_id: string;
                            template_name: string;
                            /** Template */
                            template?: {
                                /** @description path in the public catalogue, or the private template id */
                                uri?: string;
                                /** @description the template's own id */
                                id?: string;
                                name?: string;
                                author?: string[];
                                tags?: string[];
                                severity?: string;
                                /** @description protocol: http, dns, tcp, ssl, file, headless, code, javascript, workflow */
                                type?: string;
                                dir?: string;
                                /** @description git commit of the catalogue checkout */
                                ref?: string;
                                vendor?: string;
                                product?: string;
                                classification?: {
                                    "cve-id"?: string[];
                                    "cwe-id"?: string[];
                                    "cvss-metrics"?: string;
                                    "cvss-score"?: number;
                                    "epss-score"?: number;
                                    "epss-percentile"?: number;
                                    cpe?: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                metadata?: {
                                    [key: string]: unknown;
                                };
                                /** @description sha256 of raw */
                                digest?: string;
                                /** Format: date-time */
                                created_at?: string;
                                /** Format: date-time */
                                updated_at?: string;
                                release_tag?: string;
                                is_early?: boolean;
                                /** @description template source text */
                                raw?: string;
                                template_id?: string;
                                description?: string;
                                filename?: string;
                                impact?: string;
                                ai_meta?: {
                                    model_used?: string;
                                    is_prompt_by_human?: boolean;
                                    is_template_by_human?: boolean;
                                    prompt?: string;
                                };
                                references?: string[];
                                /** @description public, user or shared */
                                template_type?: string;
                                is_draft?: boolean;
                                is_github?: boolean;
                                is_new?: boolean;
                                is_svcteam?: boolean;
                                remediation?: string;
                                /** @description whether a trusted key signed the template (its `# digest:` line): ProjectDiscovery's or a certificate in VIGIL_TEMPLATE_CERTIFICATES */
                                is_signed?: boolean;
                                /** @description the signer: the trusted certificate's common name, e.g. projectdiscovery/nuclei-templates */
                                signed_by?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        /** Update a private template of the team */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description template text (YAML), at most 1 MiB */
                        template: string;
                        template_id: string;
                        prompt?: string;
                        filename?: string;
                        dir?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            template_id: string;
                            template_name: string;
                            status: boolean;
                            /** Template */
                            template: {
                                /** @description path in the public catalogue, or the private template id */
                                uri?: string;
                                /** @description the template's own id */
                                id?: string;
                                name?: string;
                                author?: string[];
                                tags?: string[];
                                severity?: string;
                                /** @description protocol: http, dns, tcp, ssl, file, headless, code, javascript, workflow */
                                type?: string;
                                dir?: string;
                                /** @description git commit of the catalogue checkout */
                                ref?: string;
                                vendor?: string;
                                product?: string;
                                classification?: {
                                    "cve-id"?: string[];
                                    "cwe-id"?: string[];
                                    "cvss-metrics"?: string;
                                    "cvss-score"?: number;
                                    "epss-score"?: number;
                                    "epss-percentile"?: number;
                                    cpe?: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                metadata?: {
                                    [key: string]: unknown;
                                };
                                /** @description sha256 of raw */
                                digest?: string;
                                /** Format: date-time */
                                created_at?: string;
                                /** Format: date-time */
                                updated_at?: string;
                                release_tag?: string;
                                is_early?: boolean;
                                /** @description template source text */
                                raw?: string;
                                template_id?: string;
                                description?: string;
                                filename?: string;
                                impact?: string;
                                ai_meta?: {
                                    model_used?: string;
                                    is_prompt_by_human?: boolean;
                                    is_template_by_human?: boolean;
                                    prompt?: string;
                                };
                                references?: string[];
                                /** @description public, user or shared */
                                template_type?: string;
                                is_draft?: boolean;
                                is_github?: boolean;
                                is_new?: boolean;
                                is_svcteam?: boolean;
                                remediation?: string;
                                /** @description whether a trusted key signed the template (its `# digest:` line): ProjectDiscovery's or a certificate in VIGIL_TEMPLATE_CERTIFICATES */
                                is_signed?: boolean;
                                /** @description the signer: the trusted certificate's common name, e.g. projectdiscovery/nuclei-templates */
                                signed_by?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/template/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check template text with the validator: each problem with its field and line (the console's editor uses it) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description template text (YAML), at most 1 MiB */
                        template: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            valid: boolean;
                            errors: {
                                message: string;
                                /** @description the field the problem is about, as http[0].matchers[1].type; empty for the whole text */
                                field: string;
                                /** @description 1-based line in the text */
                                line?: number;
                                column?: number;
                            }[];
                            warnings: {
                                message: string;
                                /** @description the field the problem is about, as http[0].matchers[1].type; empty for the whole text */
                                field: string;
                                /** @description 1-based line in the text */
                                line?: number;
                                column?: number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/template/{template_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A private template of the team */
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated Template record fields to return */
                    fields?: string;
                };
                header?: never;
                path: {
                    template_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** Template */
                            template: {
                                /** @description path in the public catalogue, or the private template id */
                                uri?: string;
                                /** @description the template's own id */
                                id?: string;
                                name?: string;
                                author?: string[];
                                tags?: string[];
                                severity?: string;
                                /** @description protocol: http, dns, tcp, ssl, file, headless, code, javascript, workflow */
                                type?: string;
                                dir?: string;
                                /** @description git commit of the catalogue checkout */
                                ref?: string;
                                vendor?: string;
                                product?: string;
                                classification?: {
                                    "cve-id"?: string[];
                                    "cwe-id"?: string[];
                                    "cvss-metrics"?: string;
                                    "cvss-score"?: number;
                                    "epss-score"?: number;
                                    "epss-percentile"?: number;
                                    cpe?: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                metadata?: {
                                    [key: string]: unknown;
                                };
                                /** @description sha256 of raw */
                                digest?: string;
                                /** Format: date-time */
                                created_at?: string;
                                /** Format: date-time */
                                updated_at?: string;
                                release_tag?: string;
                                is_early?: boolean;
                                /** @description template source text */
                                raw?: string;
                                template_id?: string;
                                description?: string;
                                filename?: string;
                                impact?: string;
                                ai_meta?: {
                                    model_used?: string;
                                    is_prompt_by_human?: boolean;
                                    is_template_by_human?: boolean;
                                    prompt?: string;
                                };
                                references?: string[];
                                /** @description public, user or shared */
                                template_type?: string;
                                is_draft?: boolean;
                                is_github?: boolean;
                                is_new?: boolean;
                                is_svcteam?: boolean;
                                remediation?: string;
                                /** @description whether a trusted key signed the template (its `# digest:` line): ProjectDiscovery's or a certificate in VIGIL_TEMPLATE_CERTIFICATES */
                                is_signed?: boolean;
                                /** @description the signer: the trusted certificate's common name, e.g. projectdiscovery/nuclei-templates */
                                signed_by?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a private template of the team */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    template_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            status: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/template/profiles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The catalogue's scan profiles (profiles/*.yml) with the number of templates each selects
         * @description Vigil's own operation. Profiles are kept by `vigil templates import` from the checkout's profiles/ folder; a profile selects public catalogue templates by tags, include-tags, exclude-tags, severity, exclude-severity, type, exclude-type, author, template-id, exclude-id, templates, exclude-templates and code, as nuclei does; other keys (such as var) are listed in `unsupported` and not applied.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            results: {
                                /** @description file name without extension, as `nuclei -profile NAME` */
                                name: string;
                                /** @description catalogue path of the profile file */
                                file: string;
                                /** @description the file's leading comment */
                                description: string | null;
                                /** @description the supported keys of the profile as written (lists lower-cased, except paths; code: a boolean) */
                                selectors: {
                                    [key: string]: string[] | boolean;
                                };
                                /** @description keys of the file that Vigil does not apply */
                                unsupported: string[];
                                /** @description public catalogue templates (not early access) it selects */
                                template_count: number;
                            }[];
                            count: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/template/profiles/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A scan profile resolved to the catalogue templates it selects (paths, as POST /v1/scans takes)
         * @description Vigil's own operation; see GET /v1/template/profiles.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** TemplateProfile */
                            profile: {
                                /** @description file name without extension, as `nuclei -profile NAME` */
                                name: string;
                                /** @description catalogue path of the profile file */
                                file: string;
                                /** @description the file's leading comment */
                                description: string | null;
                                /** @description the supported keys of the profile as written (lists lower-cased, except paths; code: a boolean) */
                                selectors: {
                                    [key: string]: string[] | boolean;
                                };
                                /** @description keys of the file that Vigil does not apply */
                                unsupported: string[];
                                /** @description public catalogue templates (not early access) it selects */
                                template_count: number;
                            };
                            /** @description catalogue paths of the selected templates */
                            templates: string[];
                            /** @description their template ids, in the same order */
                            template_ids: string[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/template/public/{template_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A public catalogue template by id (or catalogue path) */
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated Template record fields to return */
                    fields?: string;
                };
                header?: never;
                path: {
                    template_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** Template */
                            template: {
                                /** @description path in the public catalogue, or the private template id */
                                uri?: string;
                                /** @description the template's own id */
                                id?: string;
                                name?: string;
                                author?: string[];
                                tags?: string[];
                                severity?: string;
                                /** @description protocol: http, dns, tcp, ssl, file, headless, code, javascript, workflow */
                                type?: string;
                                dir?: string;
                                /** @description git commit of the catalogue checkout */
                                ref?: string;
                                vendor?: string;
                                product?: string;
                                classification?: {
                                    "cve-id"?: string[];
                                    "cwe-id"?: string[];
                                    "cvss-metrics"?: string;
                                    "cvss-score"?: number;
                                    "epss-score"?: number;
                                    "epss-percentile"?: number;
                                    cpe?: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                metadata?: {
                                    [key: string]: unknown;
                                };
                                /** @description sha256 of raw */
                                digest?: string;
                                /** Format: date-time */
                                created_at?: string;
                                /** Format: date-time */
                                updated_at?: string;
                                release_tag?: string;
                                is_early?: boolean;
                                /** @description template source text */
                                raw?: string;
                                template_id?: string;
                                description?: string;
                                filename?: string;
                                impact?: string;
                                ai_meta?: {
                                    model_used?: string;
                                    is_prompt_by_human?: boolean;
                                    is_template_by_human?: boolean;
                                    prompt?: string;
                                };
                                references?: string[];
                                /** @description public, user or shared */
                                template_type?: string;
                                is_draft?: boolean;
                                is_github?: boolean;
                                is_new?: boolean;
                                is_svcteam?: boolean;
                                remediation?: string;
                                /** @description whether a trusted key signed the template (its `# digest:` line): ProjectDiscovery's or a certificate in VIGIL_TEMPLATE_CERTIFICATES */
                                is_signed?: boolean;
                                /** @description the signer: the trusted certificate's common name, e.g. projectdiscovery/nuclei-templates */
                                signed_by?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/template/public": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The public catalogue as a list, by path (early-access templates are in /v1/template/early) */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    limit?: number;
                    /** @description comma-separated Template record fields to return */
                    fields?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            results: {
                                /** @description path in the public catalogue, or the private template id */
                                uri?: string;
                                /** @description the template's own id */
                                id?: string;
                                name?: string;
                                author?: string[];
                                tags?: string[];
                                severity?: string;
                                /** @description protocol: http, dns, tcp, ssl, file, headless, code, javascript, workflow */
                                type?: string;
                                dir?: string;
                                /** @description git commit of the catalogue checkout */
                                ref?: string;
                                vendor?: string;
                                product?: string;
                                classification?: {
                                    "cve-id"?: string[];
                                    "cwe-id"?: string[];
                                    "cvss-metrics"?: string;
                                    "cvss-score"?: number;
                                    "epss-score"?: number;
                                    "epss-percentile"?: number;
                                    cpe?: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                metadata?: {
                                    [key: string]: unknown;
                                };
                                /** @description sha256 of raw */
                                digest?: string;
                                /** Format: date-time */
                                created_at?: string;
                                /** Format: date-time */
                                updated_at?: string;
                                release_tag?: string;
                                is_early?: boolean;
                                /** @description template source text */
                                raw?: string;
                                template_id?: string;
                                description?: string;
                                filename?: string;
                                impact?: string;
                                ai_meta?: {
                                    model_used?: string;
                                    is_prompt_by_human?: boolean;
                                    is_template_by_human?: boolean;
                                    prompt?: string;
                                };
                                references?: string[];
                                /** @description public, user or shared */
                                template_type?: string;
                                is_draft?: boolean;
                                is_github?: boolean;
                                is_new?: boolean;
                                is_svcteam?: boolean;
                                remediation?: string;
                                /** @description whether a trusted key signed the template (its `# digest:` line): ProjectDiscovery's or a certificate in VIGIL_TEMPLATE_CERTIFICATES */
                                is_signed?: boolean;
                                /** @description the signer: the trusted certificate's common name, e.g. projectdiscovery/nuclei-templates */
                                signed_by?: string;
                            }[];
                            message: string;
                            count: number;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/template/early": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Early-access templates: the set imported with `vigil templates import DIR --early`, by path
         * @description The release feed (`vigil templates update`) has no early-access set; the list is empty until one is imported.
         */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    limit?: number;
                    /** @description comma-separated Template record fields to return */
                    fields?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            results: {
                                /** @description path in the public catalogue, or the private template id */
                                uri?: string;
                                /** @description the template's own id */
                                id?: string;
                                name?: string;
                                author?: string[];
                                tags?: string[];
                                severity?: string;
                                /** @description protocol: http, dns, tcp, ssl, file, headless, code, javascript, workflow */
                                type?: string;
                                dir?: string;
                                /** @description git commit of the catalogue checkout */
                                ref?: string;
                                vendor?: string;
                                product?: string;
                                classification?: {
                                    "cve-id"?: string[];
                                    "cwe-id"?: string[];
                                    "cvss-metrics"?: string;
                                    "cvss-score"?: number;
                                    "epss-score"?: number;
                                    "epss-percentile"?: number;
                                    cpe?: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                metadata?: {
                                    [key: string]: unknown;
                                };
                                /** @description sha256 of raw */
                                digest?: string;
                                /** Format: date-time */
                                created_at?: string;
                                /** Format: date-time */
                                updated_at?: string;
                                release_tag?: string;
                                is_early?: boolean;
                                /** @description template source text */
                                raw?: string;
                                template_id?: string;
                                description?: string;
                                filename?: string;
                                impact?: string;
                                ai_meta?: {
                                    model_used?: string;
                                    is_prompt_by_human?: boolean;
                                    is_template_by_human?: boolean;
                                    prompt?: string;
                                };
                                references?: string[];
                                /** @description public, user or shared */
                                template_type?: string;
                                is_draft?: boolean;
                                is_github?: boolean;
                                is_new?: boolean;
                                is_svcteam?: boolean;
                                remediation?: string;
                                /** @description whether a trusted key signed the template (its `# digest:` line): ProjectDiscovery's or a certificate in VIGIL_TEMPLATE_CERTIFICATES */
                                is_signed?: boolean;
                                /** @description the signer: the trusted certificate's common name, e.g. projectdiscovery/nuclei-templates */
                                signed_by?: string;
                            }[];
                            message: string;
                            count: number;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/template/early/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An early-access template by id (or catalogue path) */
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated Template record fields to return */
                    fields?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** Template */
                            template: {
                                /** @description path in the public catalogue, or the private template id */
                                uri?: string;
                                /** @description the template's own id */
                                id?: string;
                                name?: string;
                                author?: string[];
                                tags?: string[];
                                severity?: string;
                                /** @description protocol: http, dns, tcp, ssl, file, headless, code, javascript, workflow */
                                type?: string;
                                dir?: string;
                                /** @description git commit of the catalogue checkout */
                                ref?: string;
                                vendor?: string;
                                product?: string;
                                classification?: {
                                    "cve-id"?: string[];
                                    "cwe-id"?: string[];
                                    "cvss-metrics"?: string;
                                    "cvss-score"?: number;
                                    "epss-score"?: number;
                                    "epss-percentile"?: number;
                                    cpe?: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                metadata?: {
                                    [key: string]: unknown;
                                };
                                /** @description sha256 of raw */
                                digest?: string;
                                /** Format: date-time */
                                created_at?: string;
                                /** Format: date-time */
                                updated_at?: string;
                                release_tag?: string;
                                is_early?: boolean;
                                /** @description template source text */
                                raw?: string;
                                template_id?: string;
                                description?: string;
                                filename?: string;
                                impact?: string;
                                ai_meta?: {
                                    model_used?: string;
                                    is_prompt_by_human?: boolean;
                                    is_template_by_human?: boolean;
                                    prompt?: string;
                                };
                                references?: string[];
                                /** @description public, user or shared */
                                template_type?: string;
                                is_draft?: boolean;
                                is_github?: boolean;
                                is_new?: boolean;
                                is_svcteam?: boolean;
                                remediation?: string;
                                /** @description whether a trusted key signed the template (its `# digest:` line): ProjectDiscovery's or a certificate in VIGIL_TEMPLATE_CERTIFICATES */
                                is_signed?: boolean;
                                /** @description the signer: the trusted certificate's common name, e.g. projectdiscovery/nuclei-templates */
                                signed_by?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/template/share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's shared templates with each link's type, ttl and expiry (never the link itself) */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    limit?: number;
                    /** @description comma-separated Template record fields to return */
                    fields?: string;
                    /** @description comma-separated: created_at, updated_at, expires_at, name, template_id */
                    sort_asc?: string;
                    sort_desc?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            results: {
                                /** @description path in the public catalogue, or the private template id */
                                uri?: string;
                                /** @description the template's own id */
                                id?: string;
                                name?: string;
                                author?: string[];
                                tags?: string[];
                                severity?: string;
                                /** @description protocol: http, dns, tcp, ssl, file, headless, code, javascript, workflow */
                                type?: string;
                                dir?: string;
                                /** @description git commit of the catalogue checkout */
                                ref?: string;
                                vendor?: string;
                                product?: string;
                                classification?: {
                                    "cve-id"?: string[];
                                    "cwe-id"?: string[];
                                    "cvss-metrics"?: string;
                                    "cvss-score"?: number;
                                    "epss-score"?: number;
                                    "epss-percentile"?: number;
                                    cpe?: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                metadata?: {
                                    [key: string]: unknown;
                                };
                                /** @description sha256 of raw */
                                digest?: string;
                                /** Format: date-time */
                                created_at?: string;
                                /** Format: date-time */
                                updated_at?: string;
                                release_tag?: string;
                                is_early?: boolean;
                                /** @description template source text */
                                raw?: string;
                                template_id?: string;
                                description?: string;
                                filename?: string;
                                impact?: string;
                                ai_meta?: {
                                    model_used?: string;
                                    is_prompt_by_human?: boolean;
                                    is_template_by_human?: boolean;
                                    prompt?: string;
                                };
                                references?: string[];
                                /** @description public, user or shared */
                                template_type?: string;
                                is_draft?: boolean;
                                is_github?: boolean;
                                is_new?: boolean;
                                is_svcteam?: boolean;
                                remediation?: string;
                                /** @description whether a trusted key signed the template (its `# digest:` line): ProjectDiscovery's or a certificate in VIGIL_TEMPLATE_CERTIFICATES */
                                is_signed?: boolean;
                                /** @description the signer: the trusted certificate's common name, e.g. projectdiscovery/nuclei-templates */
                                signed_by?: string;
                                share_type?: string;
                                ttl?: string;
                                /**
                                 * Format: date-time
                                 * @description when the link stops working
                                 */
                                expires_at?: string;
                                users_email?: string[];
                                organizations?: string[];
                            }[];
                            message: string;
                            count: number;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Share a private template read-only by link; the answer shows the link once (sharing again replaces it) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        template_id: string;
                        /** @description only unlisted (anyone with the link) is available here; organization and users answer 400 */
                        share_type?: "unlisted" | "organization" | "users";
                        /** @description how long the link works, from now: 30m, 12h, 7d, 2w (m is minutes); default 7d, at most 365d */
                        ttl?: string;
                        organizations?: string[];
                        emails?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            result: {
                                template_id: string;
                                share_type: string;
                                ttl: string;
                                /** Format: date-time */
                                expires_at: string;
                                organizations: string[];
                                users_email: string[];
                                /** @description the credential of the link; stored only as a hash, shown only in this answer */
                                share_token: string;
                                /** @description GET this path (on this server) to read the template; no API key needed */
                                share_path: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/template/share/{template_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a shared template through its link (the path the share answered); read-only */
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated Template record fields to return */
                    fields?: string;
                };
                header?: never;
                path: {
                    /** @description the link's token */
                    template_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** SharedTemplate */
                            result: {
                                /** @description path in the public catalogue, or the private template id */
                                uri?: string;
                                /** @description the template's own id */
                                id?: string;
                                name?: string;
                                author?: string[];
                                tags?: string[];
                                severity?: string;
                                /** @description protocol: http, dns, tcp, ssl, file, headless, code, javascript, workflow */
                                type?: string;
                                dir?: string;
                                /** @description git commit of the catalogue checkout */
                                ref?: string;
                                vendor?: string;
                                product?: string;
                                classification?: {
                                    "cve-id"?: string[];
                                    "cwe-id"?: string[];
                                    "cvss-metrics"?: string;
                                    "cvss-score"?: number;
                                    "epss-score"?: number;
                                    "epss-percentile"?: number;
                                    cpe?: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                metadata?: {
                                    [key: string]: unknown;
                                };
                                /** @description sha256 of raw */
                                digest?: string;
                                /** Format: date-time */
                                created_at?: string;
                                /** Format: date-time */
                                updated_at?: string;
                                release_tag?: string;
                                is_early?: boolean;
                                /** @description template source text */
                                raw?: string;
                                template_id?: string;
                                description?: string;
                                filename?: string;
                                impact?: string;
                                ai_meta?: {
                                    model_used?: string;
                                    is_prompt_by_human?: boolean;
                                    is_template_by_human?: boolean;
                                    prompt?: string;
                                };
                                references?: string[];
                                /** @description public, user or shared */
                                template_type?: string;
                                is_draft?: boolean;
                                is_github?: boolean;
                                is_new?: boolean;
                                is_svcteam?: boolean;
                                remediation?: string;
                                /** @description whether a trusted key signed the template (its `# digest:` line): ProjectDiscovery's or a certificate in VIGIL_TEMPLATE_CERTIFICATES */
                                is_signed?: boolean;
                                /** @description the signer: the trusted certificate's common name, e.g. projectdiscovery/nuclei-templates */
                                signed_by?: string;
                                share_type?: string;
                                ttl?: string;
                                /**
                                 * Format: date-time
                                 * @description when the link stops working
                                 */
                                expires_at?: string;
                                users_email?: string[];
                                organizations?: string[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Revoke a private template's link (the template itself stays) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    template_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change how long a private template's link works (ttl from now); the link stays the same */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    template_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description how long the link works, from now: 30m, 12h, 7d, 2w (m is minutes); default 7d, at most 365d */
                        ttl?: string;
                        /** @description only unlisted (anyone with the link) is available here; organization and users answer 400 */
                        share_type?: "unlisted" | "organization" | "users";
                        users?: number[];
                        emails?: string[];
                        organizations?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** SharedTemplateMetaData */
                            result: {
                                template_id: string;
                                share_type: string;
                                ttl: string;
                                /** Format: date-time */
                                expires_at: string;
                                organizations: string[];
                                users_email: string[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/template/ai": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generate a template with AI (hosted platform only)
         * @description Answers 404 with code hosted_only: generation runs on the hosted platform's AI engine, which a self-hosted instance does not have.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        prompt: string;
                        retest?: boolean;
                        disableAutoSave?: boolean;
                        images?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Scan schedules of the team */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            schedules: {
                                scan_frequency: string;
                                scan_id: string;
                                schedule_last_run: string;
                                schedule_next_run: string;
                                start_time?: string;
                                hourly_frequency?: number;
                                custom_weekdays?: number[];
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Set the schedule of a scan (times are UTC; see docs/schedules.md) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        scan_id: string;
                        /** @description hourly, daily, weekly, monthly or custom */
                        scan_frequency: string;
                        /** @description UTC time of day HH:MM[:SS], or a UTC date-time */
                        start_time?: string;
                        /** @description hours between runs, 1-24 (hourly only) */
                        hourly_frequency?: number;
                        /** @description 0-6, 0 = Sunday (custom only) */
                        custom_weekdays?: number[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Remove the schedule of a scan */
        delete: {
            parameters: {
                query: {
                    scan_id: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/schedule/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check a schedule before the scan exists (Vigil only): the same checks as setting one, nothing stored; answers its first run */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description hourly, daily, weekly, monthly or custom */
                        scan_frequency: string;
                        /** @description UTC time of day HH:MM[:SS], or a UTC date-time */
                        start_time?: string;
                        /** @description hours between runs, 1-24 (hourly only) */
                        hourly_frequency?: number;
                        /** @description 0-6, 0 = Sunday (custom only) */
                        custom_weekdays?: number[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @description when the schedule would first run (UTC) */
                            schedule_next_run: string;
                            start_time: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Configurations of the team (a bare array; the text only for those who may manage configs) */
        get: {
            parameters: {
                query?: {
                    /** @description scan, reporting, template, alerting, cloudlist, subfinder, remediation, vuln_score */
                    type?: string;
                    search?: string;
                    limit?: number;
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            config_type: string;
                            /** @description YAML text; empty for callers who may not manage configs */
                            config: string;
                            provider_name: string;
                            /** @description alerting configs: the events they send (shown to every role: names, not settings) */
                            events?: string[];
                            read_only: boolean;
                            global: boolean;
                            created_at: string;
                            updated_at: string;
                        }[];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Add a configuration (YAML text checked against its type; see docs/configs.md) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** @description scan, reporting, template, alerting, cloudlist, subfinder, remediation, vuln_score */
                        config_type?: string;
                        /** @description YAML text */
                        config: string;
                        /** @description applies to every scan of the team unless the scan sets disable_global_* */
                        global?: boolean;
                        /** @description no later change or delete through the API */
                        read_only?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            id: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/config/{config_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One configuration */
        get: {
            parameters: {
                query?: {
                    /** @description the config text as JSON instead of YAML */
                    config_json?: boolean;
                };
                header?: never;
                path: {
                    config_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            config_type: string;
                            /** @description YAML text; empty for callers who may not manage configs */
                            config: string;
                            provider_name: string;
                            /** @description alerting configs: the events they send (shown to every role: names, not settings) */
                            events?: string[];
                            read_only: boolean;
                            global: boolean;
                            created_at: string;
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a configuration (not a read-only one) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    config_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change a configuration (not a read-only one) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    config_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        /** @description YAML text */
                        config?: string;
                        global?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            id: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/scans/config/{config_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Alerts and tickets sent for an alerting or reporting config, newest first, with attempts and errors */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    offset?: number;
                };
                header?: never;
                path: {
                    config_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            config_id: string;
                            /** @description alert or ticket */
                            kind: string;
                            /** @description scan_running, scan_finished, scan_failed, scan_stopped, new_finding, or ticket */
                            event: string;
                            scan_id: string;
                            run: number;
                            vuln_hash: string;
                            /** @description pending, delivered or failed */
                            status: string;
                            attempts: number;
                            last_error: string;
                            response_status: number;
                            created_at: string;
                            updated_at: string;
                            delivered_at: string;
                            next_attempt_at: string;
                            ticket_id?: string;
                            ticket_url?: string;
                        }[];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/config/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a test: checks the config text; an alerting config sends one test alert, a reporting config reads its tracker project (nothing stored, no ticket opened) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description the YAML text to test */
                        config: string;
                        /** @description the config type; left out: alerting or reporting as the text shows, else scan */
                        config_type?: string;
                        /** @description accepted for compatibility; unused */
                        oauth_config_id?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            is_verified: boolean;
                            /** @description what happened, in words (the problem or the reason when it failed) */
                            response: string;
                            /** @description the key a refused text names, e.g. config.webhook.url (Vigil) */
                            param?: string;
                            /** @description the test alert sent */
                            event?: {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/{scan_id}/asset/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export the unique assets (targets) of a scan with their result counts (raw, json or csv) */
        get: {
            parameters: {
                query?: {
                    search?: string;
                    /** @description raw, json (default) or csv */
                    format?: string;
                };
                header?: never;
                path: {
                    scan_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List scans */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    limit?: number;
                    search?: string;
                    /** @description failed, finished, queued, running, starting, uploaded, scheduled (comma-separated) */
                    status?: string;
                    sort_asc?: string;
                    sort_desc?: string;
                    is_internal?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            current_page: number;
                            result_count: number;
                            total_results: number;
                            total_pages: number;
                            message: string;
                            data: {
                                scan_id: string;
                                name: string;
                                status: string;
                                failure_reason: string;
                                progress: number;
                                scan_time_elapsed: string;
                                created_at: string;
                                updated_at: string;
                                completed_at: string;
                                total_target: number;
                                total_template: number;
                                total_scan: number;
                                total_result: number;
                                rescan_count: number;
                                is_rescan: boolean;
                                is_oss: boolean;
                                is_cloud: boolean;
                                is_automatic: boolean;
                                is_internal: boolean;
                                severity: {
                                    [key: string]: number;
                                };
                                asset_ids: string[];
                                public_templates: string[];
                                template_ids: string[];
                                template_urls: string[];
                                scan_config_ids: string[];
                                report_config_ids: string[];
                                schedule?: {
                                    scan_frequency: string;
                                    scan_id: string;
                                    schedule_last_run: string;
                                    schedule_next_run: string;
                                    start_time?: string;
                                    hourly_frequency?: number;
                                    custom_weekdays?: number[];
                                };
                                agent_id?: string;
                                agent_tags?: string[];
                                agent_networks?: string[];
                                agent_behavior?: "distribute" | "mirror";
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create a scan */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        targets?: string[];
                        templates?: string[];
                        assets?: string[];
                        early_templates?: string[];
                        exclude_targets?: string[];
                        /** @description exclusion patterns; a leading + makes an allow-list pattern */
                        exclusions?: string[];
                        private_templates?: {
                            name: string;
                            contents: string;
                        }[];
                        name?: string;
                        recommended?: boolean;
                        all?: boolean;
                        schedule_only?: boolean;
                        automatic_scan?: boolean;
                        scan_all_assets?: boolean;
                        disable_global_alert_config?: boolean;
                        disable_global_report_config?: boolean;
                        disable_global_scan_config?: boolean;
                        alerting_config_ids?: string[];
                        scan_config_ids?: string[];
                        reporting_config_ids?: string[];
                        enumeration_ids?: {
                            id: string;
                        }[];
                        socks5_proxy?: string;
                        agent_id?: string;
                        agent_tags?: string[];
                        agent_networks?: string[];
                        agent_behavior?: "distribute" | "mirror";
                        asset_filters?: {
                            is_tech?: boolean;
                            is_favicon?: boolean;
                            is_new?: boolean;
                            is_screenshot?: boolean;
                            only_dns?: boolean;
                            only_ip?: boolean;
                            labels?: string;
                            host?: string;
                            port?: string;
                            status_code?: string;
                            content_length?: string;
                            title?: string;
                            cname?: string;
                            technologies?: string;
                            ip?: string;
                            domain?: string[];
                            /** Format: date */
                            start_date?: string;
                            /** Format: date */
                            end_date?: string;
                            custom_filter?: string;
                            search?: string;
                            enumeration_ids?: string[];
                            not_seen_for_days?: number;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            id: string;
                            "truncated-scan-targets": number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Delete scans by id, with their results and logs (all of them, or none when one is not found) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        scan_ids: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            ok: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Findings of the team's scans */
        get: {
            parameters: {
                query?: {
                    scan_id?: string;
                    offset?: number;
                    limit?: number;
                    /** @description comma-separated, e.g. info,high */
                    severity?: string;
                    search?: string;
                    /** @description comma-separated hosts or matched URLs */
                    host?: string;
                    /** @description comma-separated domain names (subdomains match) */
                    domain?: string;
                    /** @description comma-separated ports */
                    port?: string;
                    /** @description comma-separated template ids or paths */
                    templates?: string;
                    /** @description comma-separated tags */
                    tags?: string;
                    /** @description last_day, last_week, last_month, last_3_months, last_6_months, last_12_months */
                    time?: string;
                    /** @description comma-separated statuses: open, false_positive, fixed, duplicate, fix_in_progress, accepted_risk, triaged */
                    vuln_status?: string;
                    /** @description comma-separated labels (any of them) */
                    labels?: string;
                    /** @description only findings that came back after being fixed */
                    is_regression?: boolean;
                    sort_asc?: string;
                    sort_desc?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            current_page: number;
                            result_count: number;
                            total_results: number;
                            total_pages: number;
                            message: string;
                            data: {
                                vuln_id: string;
                                vuln_hash: string;
                                scan_id: string;
                                /** @description the agent that produced the finding (absent: a worker) */
                                agent_id?: string;
                                target: string;
                                matched_at: string;
                                template_id: string;
                                template_url?: string;
                                template_path?: string;
                                template_name?: string;
                                severity: string;
                                tags: string[];
                                port?: number;
                                result_type: string;
                                matcher_status: boolean;
                                vuln_status: string;
                                labels: string[];
                                /** @description a fixed finding that a later scan or retest saw again */
                                is_regression: boolean;
                                description?: string;
                                impact?: string;
                                remediation?: string;
                                reference?: string[];
                                created_at: string;
                                updated_at: string;
                                /** @description the engine's result in nuclei's JSON field names (one event per finding) */
                                event: {
                                    [key: string]: unknown;
                                }[];
                            }[];
                        } & {
                            stats: {
                                total: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/results/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Vigil only: the overview's figures - findings by severity, new and fixed per day, top hosts and templates (each finding once per vuln_hash) */
        get: {
            parameters: {
                query?: {
                    /** @description days of new/fixed per day */
                    days?: number;
                    /** @description open (default: open, triaged, fix_in_progress) or all */
                    status?: string;
                    scan_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            status: string;
                            days: number;
                            total: number;
                            /** @description findings per severity */
                            severity: {
                                [key: string]: number;
                            };
                            per_day: {
                                /** @description YYYY-MM-DD (UTC) */
                                day: string;
                                new: number;
                                fixed: number;
                            }[];
                            top_hosts: {
                                host: string;
                                count: number;
                            }[];
                            top_templates: {
                                template_id: string;
                                name: string;
                                severity: string;
                                count: number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/results/{vuln_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One finding of the team's scans by its vuln_id */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    vuln_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            vuln_id: string;
                            vuln_hash: string;
                            scan_id: string;
                            /** @description the agent that produced the finding (absent: a worker) */
                            agent_id?: string;
                            target: string;
                            matched_at: string;
                            template_id: string;
                            template_url?: string;
                            template_path?: string;
                            template_name?: string;
                            severity: string;
                            tags: string[];
                            port?: number;
                            result_type: string;
                            matcher_status: boolean;
                            vuln_status: string;
                            labels: string[];
                            /** @description a fixed finding that a later scan or retest saw again */
                            is_regression: boolean;
                            description?: string;
                            impact?: string;
                            remediation?: string;
                            reference?: string[];
                            created_at: string;
                            updated_at: string;
                            /** @description the engine's result in nuclei's JSON field names (one event per finding) */
                            event: {
                                [key: string]: unknown;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/vulns/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** History of findings (by vuln_hash) across scan runs, newest first */
        get: {
            parameters: {
                query: {
                    vuln_hash: string[];
                    history_limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: {
                                history_count: number;
                                history: {
                                    severity: string;
                                    target: string;
                                    template_id: string;
                                    matched: boolean;
                                    timestamp: string;
                                    vuln_hash: string;
                                    event: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import a nuclei JSON-lines results file as an uploaded scan */
        post: {
            parameters: {
                query?: {
                    name?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            id: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/{scan_id}/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Add more nuclei JSON-lines results to an uploaded scan (the uploader sends later chunks here) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    scan_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            id: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/scans/{scan_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a scan */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    scan_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            scan_id: string;
                            name: string;
                            status: string;
                            failure_reason: string;
                            progress: number;
                            scan_time_elapsed: string;
                            created_at: string;
                            updated_at: string;
                            completed_at: string;
                            total_target: number;
                            total_template: number;
                            total_scan: number;
                            total_result: number;
                            rescan_count: number;
                            is_rescan: boolean;
                            is_oss: boolean;
                            is_cloud: boolean;
                            is_automatic: boolean;
                            is_internal: boolean;
                            severity: {
                                [key: string]: number;
                            };
                            asset_ids: string[];
                            public_templates: string[];
                            template_ids: string[];
                            template_urls: string[];
                            scan_config_ids: string[];
                            report_config_ids: string[];
                            schedule?: {
                                scan_frequency: string;
                                scan_id: string;
                                schedule_last_run: string;
                                schedule_next_run: string;
                                start_time?: string;
                                hourly_frequency?: number;
                                custom_weekdays?: number[];
                            };
                            agent_id?: string;
                            agent_tags?: string[];
                            agent_networks?: string[];
                            agent_behavior?: "distribute" | "mirror";
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a scan with its results and logs */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    scan_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            ok: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Rename a scan (the hosted platform's scan metadata) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    scan_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/scans/{scan_id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop a queued or running scan (it ends as failed, reason "stopped") */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    scan_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            ok: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/{scan_id}/rescan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a scan again */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    scan_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            id: string;
                            "truncated-scan-targets": number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/{scan_id}/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Scan configuration */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    scan_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            targets: string[];
                            assets_lists: string[];
                            public_templates: string[];
                            early_templates: string[];
                            template_urls: string[];
                            template_ids: string[];
                            scan_config_ids: {
                                id: string;
                                name: string;
                                config_type: string;
                                provider_name?: string;
                            }[];
                            report_config_ids: {
                                id: string;
                                name: string;
                                config_type: string;
                                provider_name?: string;
                            }[];
                            alerting_config_ids: {
                                id: string;
                                name: string;
                                config_type: string;
                                provider_name?: string;
                            }[];
                            enumeration_ids: {
                                id: string;
                                name: string;
                                enumeration_type: string;
                                types: string[];
                                total_assets?: number;
                                cloudlist_provider_name?: string;
                            }[];
                            socks5_proxy: string;
                            agent_id: string;
                            agent_tags: string[];
                            agent_networks: string[];
                            agent_behavior: "distribute" | "mirror";
                            scan_all_assets: boolean;
                            asset_filters: {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change a scan's settings for its next runs (lists appended to, or replaced with update_type=replace) */
        patch: {
            parameters: {
                query?: {
                    update_type?: "append" | "replace";
                };
                header?: never;
                path: {
                    scan_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        targets?: string[];
                        assets_lists?: string[];
                        templates?: string[];
                        early_templates?: string[];
                        scan_config_ids?: string[];
                        report_config_ids?: string[];
                        alerting_config_ids?: string[];
                        enumeration_ids?: {
                            id: string;
                        }[];
                        socks5_proxy?: string;
                        agent_id?: string;
                        agent_tags?: string[];
                        agent_networks?: string[];
                        agent_behavior?: "distribute" | "mirror";
                        scan_all_assets?: boolean;
                        asset_filters?: {
                            is_tech?: boolean;
                            is_favicon?: boolean;
                            is_new?: boolean;
                            is_screenshot?: boolean;
                            only_dns?: boolean;
                            only_ip?: boolean;
                            labels?: string;
                            host?: string;
                            port?: string;
                            status_code?: string;
                            content_length?: string;
                            title?: string;
                            cname?: string;
                            technologies?: string;
                            ip?: string;
                            domain?: string[];
                            /** Format: date */
                            start_date?: string;
                            /** Format: date */
                            end_date?: string;
                            custom_filter?: string;
                            search?: string;
                            enumeration_ids?: string[];
                            not_seen_for_days?: number;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ok: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/scans/{scan_id}/scan_log/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export the scan log: a download link, or an export id with async=true */
        get: {
            parameters: {
                query?: {
                    rescan_count?: number;
                    /** @description target to search in the log */
                    host?: string;
                    /** @description template to search in the log */
                    template?: string;
                    /** @description true or false */
                    matched?: string;
                    /** @description records at or after this date-time (or last_day, last_week, ...) */
                    time?: string;
                    /** @description searched in error, target and template */
                    search?: string;
                    error?: string;
                    format?: "raw" | "json" | "csv";
                    async?: boolean;
                    alert_email?: string;
                    severity?: "error" | "info" | "all_logs";
                };
                header?: never;
                path: {
                    scan_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            url: string;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            export_id: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/export/{export_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** State of an async export, with its download link once ready */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    export_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            export_id: string;
                            scan_id: string;
                            /** @description pending, building, ready or failed */
                            status: string;
                            format: string;
                            created_at: string;
                            url?: string;
                            expires_at?: string;
                            row_count?: number;
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/export/download/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Download an export file (link from the export endpoints) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/vuln/{vuln_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One finding by its vuln_id */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    vuln_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            vuln_id: string;
                            vuln_hash: string;
                            scan_id: string;
                            /** @description the agent that produced the finding (absent: a worker) */
                            agent_id?: string;
                            target: string;
                            matched_at: string;
                            template_id: string;
                            template_url?: string;
                            template_path?: string;
                            template_name?: string;
                            severity: string;
                            tags: string[];
                            port?: number;
                            result_type: string;
                            matcher_status: boolean;
                            vuln_status: string;
                            labels: string[];
                            /** @description a fixed finding that a later scan or retest saw again */
                            is_regression: boolean;
                            description?: string;
                            impact?: string;
                            remediation?: string;
                            reference?: string[];
                            created_at: string;
                            updated_at: string;
                            /** @description the engine's result in nuclei's JSON field names */
                            event: {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/vulns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete findings: by ids, or every finding a filter selects */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        ids?: string[];
                        vuln_status?: string[];
                        /** @description accepted for compatibility; not used */
                        type?: string;
                        scan_id?: string;
                        severity?: string[];
                        host?: string[];
                        template?: string[];
                        search?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Set the status of findings: by vuln_ids, or of every finding a filter selects */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        vuln_ids?: string[];
                        /** @description open, false_positive, fixed, duplicate, fix_in_progress, accepted_risk, triaged */
                        vuln_status: "open" | "false_positive" | "fixed" | "duplicate" | "fix_in_progress" | "accepted_risk" | "triaged";
                        /** @description accepted for compatibility; not used */
                        type?: string;
                        scan_id?: string;
                        severity?: string[];
                        host?: string[];
                        template?: string[];
                        search?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/scans/vulns/labels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Set the labels of findings (replaces their labels; an empty list clears them) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        ids: string[];
                        type?: string;
                        labels?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/scans/vuln/changelogs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Changelogs of all the team's findings: every status, label and retest change, who and when */
        get: {
            parameters: {
                query?: {
                    /** @description last_day, last_week, last_month, last_3_months, last_6_months, last_12_months, all_time */
                    time?: string;
                    /** @description comma-separated: vuln_status, labels, retest */
                    event_type?: string;
                    /** @description created_at */
                    sort_asc?: string;
                    /** @description created_at */
                    sort_desc?: string;
                    limit?: number;
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                vuln_id: string;
                                vuln_hash: string;
                                scan_id: string;
                                /** @description the agent that produced the finding (absent: a worker) */
                                agent_id?: string;
                                target: string;
                                matched_at: string;
                                template_id: string;
                                template_url?: string;
                                template_path?: string;
                                template_name?: string;
                                severity: string;
                                tags: string[];
                                port?: number;
                                result_type: string;
                                matcher_status: boolean;
                                vuln_status: string;
                                labels: string[];
                                /** @description a fixed finding that a later scan or retest saw again */
                                is_regression: boolean;
                                description?: string;
                                impact?: string;
                                remediation?: string;
                                reference?: string[];
                                updated_at: string;
                                /** @description the engine's result in nuclei's JSON field names */
                                event: {
                                    [key: string]: unknown;
                                };
                                change_id: string;
                                /** @description vuln_status, labels or retest */
                                event_type: string;
                                change_event: {
                                    name: string;
                                    from: unknown;
                                    to: unknown;
                                }[];
                                /** @description the person's email, or system for a scan run */
                                changed_by: string;
                                /** @description api, platform (the console), scan or retest */
                                source: string;
                                /** @description when the change was made */
                                created_at: string;
                            }[];
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/vuln/{vuln_id}/changelogs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A finding's changelog: every status, label and retest change, who and when */
        get: {
            parameters: {
                query?: {
                    /** @description last_day, last_week, last_month, last_3_months, last_6_months, last_12_months, all_time */
                    time?: string;
                    /** @description comma-separated: vuln_status, labels, retest */
                    event_type?: string;
                    /** @description created_at */
                    sort_asc?: string;
                    /** @description created_at */
                    sort_desc?: string;
                    limit?: number;
                    offset?: number;
                };
                header?: never;
                path: {
                    vuln_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                vuln_id: string;
                                vuln_hash: string;
                                scan_id: string;
                                /** @description the agent that produced the finding (absent: a worker) */
                                agent_id?: string;
                                target: string;
                                matched_at: string;
                                template_id: string;
                                template_url?: string;
                                template_path?: string;
                                template_name?: string;
                                severity: string;
                                tags: string[];
                                port?: number;
                                result_type: string;
                                matcher_status: boolean;
                                vuln_status: string;
                                labels: string[];
                                /** @description a fixed finding that a later scan or retest saw again */
                                is_regression: boolean;
                                description?: string;
                                impact?: string;
                                remediation?: string;
                                reference?: string[];
                                updated_at: string;
                                /** @description the engine's result in nuclei's JSON field names */
                                event: {
                                    [key: string]: unknown;
                                };
                                change_id: string;
                                /** @description vuln_status, labels or retest */
                                event_type: string;
                                change_event: {
                                    name: string;
                                    from: unknown;
                                    to: unknown;
                                }[];
                                /** @description the person's email, or system for a scan run */
                                changed_by: string;
                                /** @description api, platform (the console), scan or retest */
                                source: string;
                                /** @description when the change was made */
                                created_at: string;
                            }[];
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/{vuln_id}/retest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Retest a finding: its template against its target as a small scan; no match moves it to fixed */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    vuln_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        socks5_proxy?: string;
                        agent_id?: string;
                        agent_tags?: string[];
                        agent_networks?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            results: {
                                vuln_id: string;
                                vuln_hash: string;
                                scan_id: string;
                                /** @description the agent that produced the finding (absent: a worker) */
                                agent_id?: string;
                                target: string;
                                matched_at: string;
                                template_id: string;
                                template_url?: string;
                                template_path?: string;
                                template_name?: string;
                                severity: string;
                                tags: string[];
                                port?: number;
                                result_type: string;
                                matcher_status: boolean;
                                vuln_status: string;
                                labels: string[];
                                /** @description a fixed finding that a later scan or retest saw again */
                                is_regression: boolean;
                                description?: string;
                                impact?: string;
                                remediation?: string;
                                reference?: string[];
                                created_at: string;
                                updated_at: string;
                                /** @description the engine's result in nuclei's JSON field names */
                                event: {
                                    [key: string]: unknown;
                                };
                            };
                            retest_scan_id: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/retest/{vuln_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The latest retest of a finding and the finding's state */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    vuln_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @description running, matched, not_matched or failed */
                            retest_status: string;
                            retest_scan_id: string;
                            requested_by: string;
                            retested_at: string;
                            finished_at?: string;
                            results: {
                                vuln_id: string;
                                vuln_hash: string;
                                scan_id: string;
                                /** @description the agent that produced the finding (absent: a worker) */
                                agent_id?: string;
                                target: string;
                                matched_at: string;
                                template_id: string;
                                template_url?: string;
                                template_path?: string;
                                template_name?: string;
                                severity: string;
                                tags: string[];
                                port?: number;
                                result_type: string;
                                matcher_status: boolean;
                                vuln_status: string;
                                labels: string[];
                                /** @description a fixed finding that a later scan or retest saw again */
                                is_regression: boolean;
                                description?: string;
                                impact?: string;
                                remediation?: string;
                                reference?: string[];
                                created_at: string;
                                updated_at: string;
                                event: {
                                    [key: string]: unknown;
                                }[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's agents: online state, version, tags, networks, last seen, running chunks */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agents: components["schemas"]["Agent"][];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Register an agent (or re-register the one of that name): its credential is shown once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        tags?: string[];
                        networks?: string[];
                        version?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agent: components["schemas"]["Agent"];
                            /** @description X-Agent-Key; shown once */
                            key: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One agent */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    agent_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            tags: string[];
                            networks: string[];
                            version: string;
                            /** @description heard from within the lease time (VIGIL_AGENT_LEASE_SECONDS) */
                            online: boolean;
                            /** @description the agent said it found Chromium at its start: chunks of scans with headless templates go to it */
                            headless: boolean;
                            /** @description ISO time of its last request; empty when never seen */
                            last_seen: string;
                            running_chunks: number;
                            key_prefix: string;
                            created_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Remove an agent: its credential stops working; scans only it could run fail saying so */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    agent_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/me/heartbeat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Agent: declare tags, networks and version, renew the leases of running chunks */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        tags?: string[];
                        networks?: string[];
                        version?: string;
                        /** @description Chromium was found at the agent start: it can run headless templates */
                        headless?: boolean;
                        leases?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            team_id: string;
                            /** @description leases no longer held: stop those chunks */
                            lost: string[];
                            lease_seconds: number;
                            /** @description the platform's OAST domain: out-of-band checks register through /v1/agents/me/oast/*; absent when it has none */
                            oast_domain?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/me/lease": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Agent: lease a chunk of a scan addressed to it, waiting up to `wait` seconds for one */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        wait?: number;
                        have?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            work: {
                                scan_id: string;
                                run: number;
                                idx: number;
                                lease: string;
                                targets: string[];
                                templates_key: string;
                                templates?: {
                                    raw: string;
                                    uri: string;
                                    payload_files?: {
                                        [key: string]: string[];
                                    };
                                    dependency?: boolean;
                                }[];
                                options: {
                                    [key: string]: unknown;
                                };
                                lease_seconds: number;
                            } | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/me/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Agent: one numbered batch of a leased chunk's findings and scan log lines (stored once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        lease: string;
                        seq: number;
                        results: ({
                            "template-id": string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        logs: {
                            target: string;
                            template_id: string;
                            matched: boolean;
                            severity?: string | null;
                            error?: string | null;
                            at?: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            stored: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/me/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Agent: the chunk ran to its end; `seq` is its last batch */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        lease: string;
                        seq: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/me/release": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Agent: give a leased chunk back (shutting down); another matching agent runs it */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        lease: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            released: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/me/oast/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Agent: register an interactsh client with the platform's OAST server (relayed; docs/oast.md) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description base64 of a PEM RSA public key */
                        "public-key": string;
                        "secret-key": string;
                        /** @description interactsh correlation id */
                        "correlation-id": string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/me/oast/poll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Agent: the sealed interactions of one of its interactsh clients (relayed; handed over once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description interactsh correlation id */
                        id: string;
                        secret: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description interactions, AES-256 sealed for the client */
                            data: string[];
                            /** @description the client's AES key, wrapped with its RSA key (RSA-OAEP, SHA-256) */
                            aes_key: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/me/oast/deregister": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Agent: drop one of its interactsh clients and its interactions (relayed) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description interactsh correlation id */
                        "correlation-id": string;
                        "secret-key": string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/{scan_id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export a scan's findings */
        get: {
            parameters: {
                query?: {
                    /** @description json, csv, pdf (the hosted platform), sarif (SARIF 2.1.0) or markdown; default json */
                    type?: "json" | "csv" | "pdf" | "sarif" | "markdown";
                    /** @description build the file in a job; answers 201 with its export_id */
                    async?: boolean;
                };
                header?: never;
                path: {
                    scan_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            export_id: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Export a scan's findings that match a filter */
        post: {
            parameters: {
                query?: {
                    /** @description json, csv, pdf (the hosted platform), sarif (SARIF 2.1.0) or markdown; default json */
                    type?: "json" | "csv" | "pdf" | "sarif" | "markdown";
                    /** @description build the file in a job; answers 201 with its export_id */
                    async?: boolean;
                };
                header?: never;
                path: {
                    scan_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        ids?: string[];
                        vuln_status?: string;
                        severity?: string[];
                        host?: string[];
                        domain?: string[];
                        port?: number[];
                        template?: string[];
                        search?: string;
                        category?: string[];
                        is_internal?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            export_id: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/results/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Export the team's findings that match a filter (across scans) */
        post: {
            parameters: {
                query?: {
                    /** @description json, csv, pdf (the hosted platform), sarif (SARIF 2.1.0) or markdown; default json */
                    type?: "json" | "csv" | "pdf" | "sarif" | "markdown";
                    /** @description build the file in a job; answers 201 with its export_id */
                    async?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        ids?: string[];
                        vuln_status?: string;
                        severity?: string[];
                        host?: string[];
                        domain?: string[];
                        port?: number[];
                        template?: string[];
                        search?: string;
                        category?: string[];
                        is_internal?: boolean;
                        scan_ids?: string[];
                        time?: "last_day" | "last_week" | "last_month" | "last_3_months" | "last_6_months" | "last_12_months" | "all_time";
                        /** @description YYYY-MM-DD */
                        start_date?: string;
                        /** @description YYYY-MM-DD */
                        end_date?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            export_id: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/vuln/{vuln_id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export one finding */
        get: {
            parameters: {
                query?: {
                    /** @description json, csv, pdf (the hosted platform), sarif (SARIF 2.1.0) or markdown; default json */
                    type?: "json" | "csv" | "pdf" | "sarif" | "markdown";
                };
                header?: never;
                path: {
                    vuln_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/scan_ips": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The addresses scans come from (VIGIL_SCAN_IPS, else this host’s interface addresses) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ips: {
                                ip: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Runs of the team's scans, newest first */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    limit?: number;
                    /** @description YYYY-MM-DD */
                    start_date?: string;
                    /** @description YYYY-MM-DD */
                    end_date?: string;
                    time_range?: "current_month" | "last_month" | "last_3_months" | "last_6_months" | "last_12_months" | "all_time";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            current_page: number;
                            result_count: number;
                            total_results: number;
                            total_pages: number;
                            data: {
                                scan_id: string;
                                name: string;
                                status: string;
                                time: string;
                                scan_time: string;
                                severity: {
                                    [key: string]: number;
                                };
                                total_target: number;
                                total_templates: number;
                                total_request: number;
                                completed_request: number;
                                total_result: number;
                                error_details?: string;
                                /** @description which run of the scan (0 the first) */
                                rescan_count: number;
                            }[];
                            total_scan_run: number;
                            total_unique_scan_run: number;
                            total_completed_request: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/{scan_id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Runs of one scan, newest first */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    limit?: number;
                    /** @description YYYY-MM-DD */
                    start_date?: string;
                    /** @description YYYY-MM-DD */
                    end_date?: string;
                    time_range?: "current_month" | "last_month" | "last_3_months" | "last_6_months" | "last_12_months" | "all_time";
                };
                header?: never;
                path: {
                    scan_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            current_page: number;
                            result_count: number;
                            total_results: number;
                            total_pages: number;
                            data: {
                                scan_id: string;
                                name: string;
                                status: string;
                                time: string;
                                scan_time: string;
                                severity: {
                                    [key: string]: number;
                                };
                                total_target: number;
                                total_templates: number;
                                total_request: number;
                                completed_request: number;
                                total_result: number;
                                error_details?: string;
                                /** @description which run of the scan (0 the first) */
                                rescan_count: number;
                            }[];
                            total_scan_run: number;
                            total_unique_scan_run: number;
                            total_completed_request: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/config/exclude": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Templates and targets the team’s scans skip */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: number;
                                value: string;
                                exclude_type: "scan_target" | "template" | "enumeration_target";
                                scan_id?: string;
                                enumeration_id?: string;
                                created_at: string;
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Add templates or targets every scan skips (or only the scans / enumerations named) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        values: string[];
                        exclude_type: "scan_target" | "template" | "enumeration_target";
                        scan_ids?: string[];
                        enumeration_ids?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Delete exclusions by id */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        ids: number[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/config/severity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Custom severities of templates (or single findings) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            custom_severity_mappings: {
                                id: number;
                                template_id: string;
                                original_severity: string;
                                custom_severity: string;
                                vuln_id?: string;
                                created_at: string;
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Give a template's findings (or one finding, vuln_id) a custom severity */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        template_id: string;
                        custom_severity: string;
                        vuln_id?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: number;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Delete custom severities by id (the findings get their severity back) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        ids: number[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans/config/{config_id}/severity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change a custom severity */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    config_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        template_id: string;
                        custom_severity: string;
                        vuln_id?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v2/vulnerability/{id}/timeline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A vulnerability's timeline for the team: template release and update, detections, state changes */
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated event types */
                    event_type?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            template_released_at?: string;
                            template_updated_at?: string;
                            first_detected_at?: string;
                            last_seen_at?: string;
                            current_status?: string;
                            events: {
                                timestamp: string;
                                event_type: string;
                                old_value?: string;
                                new_value?: string;
                                description?: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/template/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run template text once against one target (Vigil's own, for the editor): each request and response, matcher and extractor outcomes; records no scan */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description template text (YAML), at most 1 MiB */
                        template: string;
                        /** @description one URL, host or address */
                        target: string;
                        /** @description time cap in seconds (default and most 30) */
                        max_seconds?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            template_id: string;
                            target: string;
                            matched: boolean;
                            /** @description the cap that ended the run early */
                            stopped?: "time" | "requests";
                            duration_ms: number;
                            requests_sent: number;
                            requests_shown: number;
                            requests: {
                                /** @description index of the request block in the template's http list */
                                block: number;
                                request: {
                                    method: string;
                                    url: string;
                                    headers: [
                                        string,
                                        string
                                    ][];
                                    /** @description cut at 16384 characters */
                                    body: string;
                                    body_truncated: boolean;
                                };
                                response?: {
                                    status: number;
                                    headers: [
                                        string,
                                        string
                                    ][];
                                    /** @description cut at 16384 characters */
                                    body: string;
                                    body_truncated: boolean;
                                    duration_ms: number;
                                };
                                /** @description why no response came (refused connection, timeout, error) */
                                error?: string;
                                /** @description the deny list refused the connection */
                                denied?: boolean;
                                matchers: {
                                    index: number;
                                    name?: string;
                                    type: string;
                                    part?: string;
                                    negative?: boolean;
                                    internal?: boolean;
                                    matched: boolean;
                                }[];
                                matchers_condition: "and" | "or";
                                /** @description the block's verdict on this response, matchers-condition applied */
                                matched: boolean;
                                extractors: {
                                    index: number;
                                    name?: string;
                                    type: string;
                                    internal?: boolean;
                                    values: string[];
                                }[];
                            }[];
                            /** @description result events (nuclei's JSON fields; request and response cut) */
                            events: {
                                [key: string]: unknown;
                            }[];
                            notices: string[];
                            warnings: {
                                message: string;
                                /** @description the field the problem is about; empty for the whole text */
                                field: string;
                                /** @description 1-based line in the text */
                                line?: number;
                                column?: number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            kind?: string;
                            code?: string;
                            error?: string;
                            error_id?: string;
                            param?: string;
                            status?: number;
                            errors?: {
                                message: string;
                                /** @description the field the problem is about; empty for the whole text */
                                field: string;
                                /** @description 1-based line in the text */
                                line?: number;
                                column?: number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/vulnerability/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Full text search on vulnerabilities */
        get: {
            parameters: {
                query?: {
                    /** @description field:value, ranges (cvss_score:>7, age_in_days:<30), &&, ||, NOT, parentheses, free text */
                    q?: string;
                    /** @description The numbers of items to return */
                    limit?: number;
                    /** @description The numbers of items to skip */
                    offset?: number;
                    /** @description Sort results in ascending order (CSV field names) */
                    sort_asc?: string;
                    /** @description Sort results in descending order (CSV field names) */
                    sort_desc?: string;
                    /** @description List of fields to return (comma separated) */
                    fields?: string;
                    /** @description Fields to count values of (comma separated) */
                    term_facets?: string;
                    /** @description Numeric fields to count by range (comma separated) */
                    range_facets?: string;
                    /** @description Alias of term_facets */
                    facets?: string;
                    /** @description Number of facets to return */
                    facet_size?: number;
                    /** @description Accepted for compatibility; results are not highlighted */
                    highlight?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            total: number;
                            facets?: {
                                [key: string]: {
                                    buckets: {
                                        [key: string]: number;
                                    };
                                    missing: number;
                                    other: number;
                                    total: number;
                                };
                            };
                            results: components["schemas"]["Vulnerability"][];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/vulnerability/filters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The fields the vulnerability search accepts: type, facets, sorting, examples and values */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            field: string;
                            data_type: string;
                            description: string;
                            facet_possible: boolean;
                            can_sort: boolean;
                            examples: string[];
                            search_analyzer: string;
                            enum_values: string[];
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/vulnerability/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get vulnerability by id (a CVE id in any letter case, or a doc_id) */
        get: {
            parameters: {
                query?: {
                    /** @description Fields to return (comma separated) */
                    fields?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Vulnerability"];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asset/enumerate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List enumerations */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    limit?: number;
                    search?: string;
                    enum_type?: string;
                    sort_asc?: string;
                    sort_desc?: string;
                    status?: string;
                    /** @description last_day, last_week, last_month, last_3_months, last_6_months, last_12_months, all_time */
                    time?: string;
                    start_date?: string;
                    end_date?: string;
                    custom_filter?: string;
                    is_internal?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            current_page: number;
                            result_count: number;
                            total_results: number;
                            total_pages: number;
                            message: string;
                            data: {
                                id: string;
                                name: string;
                                status: string;
                                failure_reason: string;
                                progress: number;
                                created_at: string;
                                updated_at: string;
                                completed_at?: string;
                                enumeration_time: string;
                                enumeration_time_elapsed: string;
                                enumeration_type: string;
                                root_domains: string[];
                                domain_names: string[];
                                exclusions: string[];
                                steps: string[];
                                enumeration_ports: string;
                                enumeration_config: {
                                    [key: string]: unknown;
                                };
                                alerting_config_ids: string[];
                                automatic_vuln_scans: boolean;
                                is_rescan: boolean;
                                rescan_count: number;
                                total_assets: number;
                                new_assets: number;
                                notices: string[];
                                is_internal: boolean;
                                cloudlist_config_ids?: string[];
                                cloudlist_provider_name?: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create an enumeration (runs on the workers) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        /** @description domains, IP addresses or CIDR ranges (largest /16, IPv6 /112); may be left out when cloudlist_config_ids is given */
                        root_domains?: string[];
                        steps?: string[];
                        /** @description e.g. "80,443,8000-8100" or "top-100" (default); addresses x ports at most VIGIL_MAX_ENUMERATION_PROBES (default 16,777,216) */
                        enumeration_ports?: string;
                        enumeration_config?: {
                            "follow-redirect"?: boolean;
                            ports?: string;
                            /** @description DNS resolvers as host:port (default: the system resolver) */
                            resolvers?: string[];
                            /** @description words for dns_bruteforce */
                            wordlist?: string[];
                            concurrency?: number;
                            /** @description operations per second, 0: no limit */
                            rate_limit?: number;
                            /** @description seconds per connection or query */
                            timeout?: number;
                            /** @description subfinder provider-config.yaml text with dns_passive keys (never shown back) */
                            provider_config?: string;
                            /** @description fingerprint templates run on web assets (catalogue paths, folders, ids, private templates); default http/technologies/tech-detect.yaml; [] turns it off */
                            technology_templates?: string[];
                        };
                        /** @description exclusion patterns; a leading + makes an allow-list pattern */
                        exclusions?: string[];
                        exclude_targets?: string[];
                        alerting_config_ids?: string[];
                        disable_global_alert_config?: boolean;
                        automatic_vuln_scans?: boolean;
                        /** @description subfinder configs (configs of type subfinder) whose keys dns_passive uses */
                        subfinder_config_ids?: string[];
                        /** @description cloudlist configs (configs of type cloudlist) whose accounts' hosts and public addresses are added to the run */
                        cloudlist_config_ids?: string[];
                        /** @description not supported */
                        enrichment_inputs?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            "truncated-scan-targets": number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Delete enumerations (by id) and single assets (by their whole-number ids) in bulk */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description enumeration ids, and asset ids (whole numbers) of single assets */
                        asset_ids: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asset/enumerate/misconfiguration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Risky things discovery saw: expired, mismatched or self-signed certificates, directory listings, exposed panels, open database ports */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    offset?: number;
                    search?: string;
                    /** @description expired_certificate, mismatched_certificate, self_signed_certificate, directory_listing, exposed_panel, open_database_port */
                    finding_type?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            current_page: number;
                            result_count: number;
                            total_results: number;
                            total_pages: number;
                            message: string;
                            data: {
                                id: string;
                                enumeration_id: string;
                                finding_type: string;
                                host: string;
                                severity: string;
                                status: string;
                                event: {
                                    [key: string]: unknown;
                                };
                                created_at: string;
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asset/policy/suggestion": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Asset policies proposed from patterns in the inventory (repeated pages, shared addresses, panels, databases) */
        get: {
            parameters: {
                query?: {
                    enumeration_id?: string;
                    /** @description suggestions per category */
                    limit?: number;
                    /** @description smallest share of assets (%) a pattern needs */
                    threshold?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            suggestions: {
                                id: string;
                                category: string;
                                title: string;
                                reason: string;
                                severity: string;
                                suggested_policy: {
                                    name: string;
                                    policy_type: string;
                                    policies: {
                                        [key: string]: unknown;
                                    };
                                    labels?: string[];
                                };
                                affected_count: number;
                                affected_percentage: number;
                                sample_assets: {
                                    [key: string]: unknown;
                                }[];
                            }[];
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asset/enumerate/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export the assets of every enumeration (filters as the contents list; raw, json or csv; streamed) */
        get: {
            parameters: {
                query?: {
                    is_tech?: boolean;
                    is_favicon?: boolean;
                    is_new?: boolean;
                    is_screenshot?: boolean;
                    only_dns?: boolean;
                    only_ip?: boolean;
                    labels?: string;
                    host?: string;
                    port?: string;
                    status_code?: string;
                    content_length?: string;
                    title?: string;
                    cname?: string;
                    technologies?: string;
                    ip?: string;
                    domain?: string[];
                    /** @description last_day, last_week, last_month, last_3_months, last_6_months, last_12_months, all_time */
                    time?: string;
                    start_date?: string;
                    end_date?: string;
                    custom_filter?: string;
                    search?: string;
                    enumeration_ids?: string[];
                    not_seen_for_days?: number;
                    /** @description raw, json (default) or csv */
                    format?: string;
                    domains?: string;
                    /** @description accepted; Vigil always streams the file in the answer */
                    async?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asset/enumerate/{enum_id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export the assets of an enumeration (filters as the contents list; raw, json or csv; streamed) */
        get: {
            parameters: {
                query?: {
                    is_tech?: boolean;
                    is_favicon?: boolean;
                    is_new?: boolean;
                    is_screenshot?: boolean;
                    only_dns?: boolean;
                    only_ip?: boolean;
                    labels?: string;
                    host?: string;
                    port?: string;
                    status_code?: string;
                    content_length?: string;
                    title?: string;
                    cname?: string;
                    technologies?: string;
                    ip?: string;
                    domain?: string[];
                    /** @description last_day, last_week, last_month, last_3_months, last_6_months, last_12_months, all_time */
                    time?: string;
                    start_date?: string;
                    end_date?: string;
                    custom_filter?: string;
                    search?: string;
                    enumeration_ids?: string[];
                    not_seen_for_days?: number;
                    /** @description raw, json (default) or csv */
                    format?: string;
                    domains?: string;
                    /** @description accepted; Vigil always streams the file in the answer */
                    async?: boolean;
                };
                header?: never;
                path: {
                    enum_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asset/enumerate/{enumerate_id}/domains/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export the unique input domains of an enumeration (raw, json or csv) */
        get: {
            parameters: {
                query?: {
                    search?: string;
                    /** @description raw, json (default) or csv */
                    format?: string;
                };
                header?: never;
                path: {
                    enumerate_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asset/enumerate/{enumerate_id}/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An enumeration's launch configuration (what its next run uses) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    enumerate_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            name: string;
                            root_domains: string[];
                            enrichment_inputs: string[];
                            steps: string[];
                            enum_ports: string;
                            enumeration_config: {
                                [key: string]: unknown;
                            };
                            alerting_config_ids: string[];
                            subfinder_config_ids: string[];
                            exclusions: string[];
                            automatic_vuln_scans: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change an enumeration's launch configuration (update_type append, the default, adds to lists; replace sets) */
        patch: {
            parameters: {
                query?: {
                    update_type?: "append" | "replace";
                };
                header?: never;
                path: {
                    enumerate_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        root_domains?: string[];
                        /** @description not supported */
                        enrichment_inputs?: string[];
                        steps?: string[];
                        enum_ports?: string;
                        enumeration_config?: {
                            "follow-redirect"?: boolean;
                            ports?: string;
                            /** @description DNS resolvers as host:port (default: the system resolver) */
                            resolvers?: string[];
                            /** @description words for dns_bruteforce */
                            wordlist?: string[];
                            concurrency?: number;
                            /** @description operations per second, 0: no limit */
                            rate_limit?: number;
                            /** @description seconds per connection or query */
                            timeout?: number;
                            /** @description subfinder provider-config.yaml text with dns_passive keys (never shown back) */
                            provider_config?: string;
                            /** @description fingerprint templates run on web assets (catalogue paths, folders, ids, private templates); default http/technologies/tech-detect.yaml; [] turns it off */
                            technology_templates?: string[];
                        };
                        alerting_config_ids?: string[];
                        subfinder_config_ids?: string[];
                        exclusions?: string[];
                        automatic_vuln_scans?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/asset/enumerate/{enumerate_id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The runs of an enumeration, newest first */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    limit?: number;
                    start_date?: string;
                    end_date?: string;
                    /** @description all_time (default), current_month, last_month, last_3_months, last_6_months, last_12_months */
                    time_range?: string;
                };
                header?: never;
                path: {
                    enumerate_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            current_page: number;
                            result_count: number;
                            total_results: number;
                            total_pages: number;
                            total_enumeration: number;
                            total_unique_enumeration: number;
                            data: {
                                enum_id: string;
                                name: string;
                                enum_type: string;
                                /** @description Vigil: the run (1 = the first) */
                                run: number;
                                enum_started_at: string;
                                enum_finished_at: string;
                                enumeration_time: string;
                                status: string;
                                new_assets_discovered: number;
                                total_targets_processed: number;
                                error_details?: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asset/enumerate/contents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Assets of every enumeration of the team, filtered */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    limit?: number;
                    is_tech?: boolean;
                    is_favicon?: boolean;
                    is_new?: boolean;
                    is_screenshot?: boolean;
                    only_dns?: boolean;
                    only_ip?: boolean;
                    labels?: string;
                    host?: string;
                    port?: string;
                    status_code?: string;
                    content_length?: string;
                    title?: string;
                    cname?: string;
                    technologies?: string;
                    ip?: string;
                    domain?: string[];
                    /** @description last_day, last_week, last_month, last_3_months, last_6_months, last_12_months, all_time */
                    time?: string;
                    start_date?: string;
                    end_date?: string;
                    custom_filter?: string;
                    search?: string;
                    enumeration_ids?: string[];
                    not_seen_for_days?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            current_page: number;
                            result_count: number;
                            total_results: number;
                            total_pages: number;
                            message: string;
                            data: {
                                id: number;
                                enumeration_id: string;
                                enumeration_name?: string;
                                name: string;
                                type: string;
                                host: string;
                                port?: number;
                                ip: string[];
                                cname: string[];
                                status_code?: number;
                                content_length?: number;
                                title?: string;
                                webserver?: string;
                                technologies: string[];
                                favicon?: string;
                                chain_status_codes: string[];
                                redirect_location?: string;
                                labels: string[];
                                is_new: boolean;
                                asset_hash: string;
                                domain_name: string;
                                source: {
                                    source: string;
                                    metadata: {
                                        [key: string]: string;
                                    };
                                }[];
                                is_screenshot: boolean;
                                tls_subject_cn?: string;
                                tls_subject_org?: string;
                                tls_subject_an?: string[];
                                tls_issuer_org?: string;
                                tls_serial_number?: string;
                                tls_not_before?: string;
                                tls_not_after?: string;
                                tls_expired?: boolean;
                                tls_self_signed?: boolean;
                                tls_mismatched?: boolean;
                                tls_version?: string;
                                tls_versions?: string[];
                                created_at: string;
                                updated_at: string;
                                last_seen_at: string;
                                is_internal: boolean;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asset/labels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Add (append), set (replace) or remove (delete) labels on every current asset the filters match */
        patch: {
            parameters: {
                query?: {
                    update_type?: "append" | "replace" | "delete";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        filters: {
                            is_tech?: boolean;
                            is_favicon?: boolean;
                            is_new?: boolean;
                            is_screenshot?: boolean;
                            only_dns?: boolean;
                            only_ip?: boolean;
                            labels?: string;
                            host?: string;
                            port?: string;
                            status_code?: string;
                            content_length?: string;
                            title?: string;
                            cname?: string;
                            technologies?: string;
                            ip?: string;
                            domain?: string[];
                            /** Format: date */
                            start_date?: string;
                            /** Format: date */
                            end_date?: string;
                            custom_filter?: string;
                            search?: string;
                            enumeration_ids?: string[];
                            not_seen_for_days?: number;
                        };
                        labels: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            asset_count: number;
                            async: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/asset/{asset_id}/labels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add labels to an asset */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    asset_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        labels: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Remove every label of an asset */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    asset_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change an asset's labels (update_type append, the default; replace; delete) */
        patch: {
            parameters: {
                query?: {
                    update_type?: "append" | "replace" | "delete";
                };
                header?: never;
                path: {
                    asset_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        labels: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/asset/enumerate/group": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Asset groups of the team (Vigil) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            current_page: number;
                            result_count: number;
                            total_results: number;
                            total_pages: number;
                            message: string;
                            data: {
                                id: string;
                                name: string;
                                filters: {
                                    [key: string]: unknown;
                                };
                                static: boolean;
                                total_assets?: number;
                                created_at: string;
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create an asset group (by filter, or static) that scans can target by its id in `assets` */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        filters: {
                            is_tech?: boolean;
                            is_favicon?: boolean;
                            is_new?: boolean;
                            is_screenshot?: boolean;
                            only_dns?: boolean;
                            only_ip?: boolean;
                            labels?: string;
                            host?: string;
                            port?: string;
                            status_code?: string;
                            content_length?: string;
                            title?: string;
                            cname?: string;
                            technologies?: string;
                            ip?: string;
                            domain?: string[];
                            /** Format: date */
                            start_date?: string;
                            /** Format: date */
                            end_date?: string;
                            custom_filter?: string;
                            search?: string;
                            enumeration_ids?: string[];
                            not_seen_for_days?: number;
                        };
                        name?: string;
                        /** @description Vigil: keep the assets the filters match now (default: the group holds what the filters match when a scan uses it) */
                        static?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asset/enumerate/group/{group_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An asset group (Vigil) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    group_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            data: {
                                id: string;
                                name: string;
                                filters: {
                                    [key: string]: unknown;
                                };
                                static: boolean;
                                total_assets?: number;
                                created_at: string;
                                updated_at: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete an asset group (its assets stay) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    group_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Update an asset group (update_type append, the default, merges the filters; replace overwrites) */
        patch: {
            parameters: {
                query?: {
                    update_type?: "append" | "replace";
                };
                header?: never;
                path: {
                    group_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        filters: {
                            is_tech?: boolean;
                            is_favicon?: boolean;
                            is_new?: boolean;
                            is_screenshot?: boolean;
                            only_dns?: boolean;
                            only_ip?: boolean;
                            labels?: string;
                            host?: string;
                            port?: string;
                            status_code?: string;
                            content_length?: string;
                            title?: string;
                            cname?: string;
                            technologies?: string;
                            ip?: string;
                            domain?: string[];
                            /** Format: date */
                            start_date?: string;
                            /** Format: date */
                            end_date?: string;
                            custom_filter?: string;
                            search?: string;
                            enumeration_ids?: string[];
                            not_seen_for_days?: number;
                        };
                        name?: string;
                        /** @description Vigil: keep the assets the filters match now (default: the group holds what the filters match when a scan uses it) */
                        static?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/asset/enumerate/{enumerate_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an enumeration */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    enumerate_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            data: {
                                id: string;
                                name: string;
                                status: string;
                                failure_reason: string;
                                progress: number;
                                created_at: string;
                                updated_at: string;
                                completed_at?: string;
                                enumeration_time: string;
                                enumeration_time_elapsed: string;
                                enumeration_type: string;
                                root_domains: string[];
                                domain_names: string[];
                                exclusions: string[];
                                steps: string[];
                                enumeration_ports: string;
                                enumeration_config: {
                                    [key: string]: unknown;
                                };
                                alerting_config_ids: string[];
                                automatic_vuln_scans: boolean;
                                is_rescan: boolean;
                                rescan_count: number;
                                total_assets: number;
                                new_assets: number;
                                notices: string[];
                                is_internal: boolean;
                                cloudlist_config_ids?: string[];
                                cloudlist_provider_name?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete an enumeration and its assets */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    enumerate_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Update an enumeration (applies from its next run) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    enumerate_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        /** @description domains, IP addresses or CIDR ranges (largest /16, IPv6 /112); may be left out when cloudlist_config_ids is given */
                        root_domains?: string[];
                        steps?: string[];
                        /** @description e.g. "80,443,8000-8100" or "top-100" (default); addresses x ports at most VIGIL_MAX_ENUMERATION_PROBES (default 16,777,216) */
                        enumeration_ports?: string;
                        enumeration_config?: {
                            "follow-redirect"?: boolean;
                            ports?: string;
                            /** @description DNS resolvers as host:port (default: the system resolver) */
                            resolvers?: string[];
                            /** @description words for dns_bruteforce */
                            wordlist?: string[];
                            concurrency?: number;
                            /** @description operations per second, 0: no limit */
                            rate_limit?: number;
                            /** @description seconds per connection or query */
                            timeout?: number;
                            /** @description subfinder provider-config.yaml text with dns_passive keys (never shown back) */
                            provider_config?: string;
                            /** @description fingerprint templates run on web assets (catalogue paths, folders, ids, private templates); default http/technologies/tech-detect.yaml; [] turns it off */
                            technology_templates?: string[];
                        };
                        /** @description exclusion patterns; a leading + makes an allow-list pattern */
                        exclusions?: string[];
                        exclude_targets?: string[];
                        alerting_config_ids?: string[];
                        disable_global_alert_config?: boolean;
                        automatic_vuln_scans?: boolean;
                        /** @description subfinder configs (configs of type subfinder) whose keys dns_passive uses */
                        subfinder_config_ids?: string[];
                        /** @description cloudlist configs (configs of type cloudlist) whose accounts' hosts and public addresses are added to the run */
                        cloudlist_config_ids?: string[];
                        /** @description not supported */
                        enrichment_inputs?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/asset/enumerate/{enumerate_id}/contents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Assets of an enumeration, filtered (AssetFilters as query parameters) */
        get: {
            parameters: {
                query?: {
                    offset?: number;
                    limit?: number;
                    is_tech?: boolean;
                    is_favicon?: boolean;
                    is_new?: boolean;
                    is_screenshot?: boolean;
                    only_dns?: boolean;
                    only_ip?: boolean;
                    labels?: string;
                    host?: string;
                    port?: string;
                    status_code?: string;
                    content_length?: string;
                    title?: string;
                    cname?: string;
                    technologies?: string;
                    ip?: string;
                    domain?: string[];
                    /** @description last_day, last_week, last_month, last_3_months, last_6_months, last_12_months, all_time */
                    time?: string;
                    start_date?: string;
                    end_date?: string;
                    custom_filter?: string;
                    search?: string;
                    enumeration_ids?: string[];
                    not_seen_for_days?: number;
                };
                header?: never;
                path: {
                    enumerate_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            current_page: number;
                            result_count: number;
                            total_results: number;
                            total_pages: number;
                            message: string;
                            data: {
                                id: number;
                                enumeration_id: string;
                                enumeration_name?: string;
                                name: string;
                                type: string;
                                host: string;
                                port?: number;
                                ip: string[];
                                cname: string[];
                                status_code?: number;
                                content_length?: number;
                                title?: string;
                                webserver?: string;
                                technologies: string[];
                                favicon?: string;
                                chain_status_codes: string[];
                                redirect_location?: string;
                                labels: string[];
                                is_new: boolean;
                                asset_hash: string;
                                domain_name: string;
                                source: {
                                    source: string;
                                    metadata: {
                                        [key: string]: string;
                                    };
                                }[];
                                is_screenshot: boolean;
                                tls_subject_cn?: string;
                                tls_subject_org?: string;
                                tls_subject_an?: string[];
                                tls_issuer_org?: string;
                                tls_serial_number?: string;
                                tls_not_before?: string;
                                tls_not_after?: string;
                                tls_expired?: boolean;
                                tls_self_signed?: boolean;
                                tls_mismatched?: boolean;
                                tls_version?: string;
                                tls_versions?: string[];
                                created_at: string;
                                updated_at: string;
                                last_seen_at: string;
                                is_internal: boolean;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asset/enumerate/{enumerate_id}/rescan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run an enumeration again (changes are written to the assets' history) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    enumerate_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            "truncated-scan-targets": number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asset/enumerate/{enumerate_id}/changelogs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What each run of an enumeration changed: the change history of all its assets (newest run first) */
        get: {
            parameters: {
                query?: {
                    /** @description only this run (1 = the first); default: every run */
                    run?: number;
                    event_type?: string;
                    sort_asc?: string;
                    sort_desc?: string;
                    limit?: number;
                    offset?: number;
                };
                header?: never;
                path: {
                    enumerate_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            current_page: number;
                            result_count: number;
                            total_results: number;
                            total_pages: number;
                            message: string;
                            data: {
                                id: number;
                                enumeration_id: string;
                                name: string;
                                event_type: string;
                                run: number;
                                host?: string;
                                port?: number;
                                ip?: string;
                                status_code?: number;
                                content_length?: number;
                                title?: string;
                                webserver?: string;
                                technologies: string[];
                                cname: string[];
                                labels: string[];
                                is_new: boolean;
                                change_event: {
                                    name: string;
                                    from: unknown;
                                    to: unknown;
                                }[];
                                created_at: string;
                                updated_at: string;
                                asset_id: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asset/{asset_id}/changelogs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Change history of an asset */
        get: {
            parameters: {
                query?: {
                    /** @description last_day, last_week, last_month, last_3_months, last_6_months, last_12_months, all_time */
                    time?: string;
                    event_type?: string;
                    sort_asc?: string;
                    sort_desc?: string;
                    limit?: number;
                    offset?: number;
                };
                header?: never;
                path: {
                    asset_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            current_page: number;
                            result_count: number;
                            total_results: number;
                            total_pages: number;
                            message: string;
                            data: {
                                id: number;
                                enumeration_id: string;
                                name: string;
                                event_type: string;
                                run: number;
                                host?: string;
                                port?: number;
                                ip?: string;
                                status_code?: number;
                                content_length?: number;
                                title?: string;
                                webserver?: string;
                                technologies: string[];
                                cname: string[];
                                labels: string[];
                                is_new: boolean;
                                change_event: {
                                    name: string;
                                    from: unknown;
                                    to: unknown;
                                }[];
                                created_at: string;
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asset/{asset_id}/screenshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The PNG http_screenshot took of a web asset */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    asset_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asset/policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List asset policies */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            policies: {
                                id: string;
                                name: string;
                                policy_type: string;
                                policies: {
                                    [key: string]: unknown;
                                };
                                alerting_config_ids: string[];
                                labels: string[];
                                enumeration_ids: string[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                apply_to_existing: boolean;
                                created_at: string;
                                updated_at: string;
                                last_executed_at?: string;
                            }[];
                            total: number;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create an asset policy */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        /** @description alert, delete, set_label, remove_label */
                        policy_type?: string;
                        policies: {
                            is_tech?: boolean;
                            is_favicon?: boolean;
                            is_new?: boolean;
                            is_screenshot?: boolean;
                            only_dns?: boolean;
                            only_ip?: boolean;
                            labels?: string;
                            host?: string;
                            port?: string;
                            status_code?: string;
                            content_length?: string;
                            title?: string;
                            cname?: string;
                            technologies?: string;
                            ip?: string;
                            domain?: string[];
                            /** Format: date */
                            start_date?: string;
                            /** Format: date */
                            end_date?: string;
                            custom_filter?: string;
                            search?: string;
                            enumeration_ids?: string[];
                            not_seen_for_days?: number;
                        };
                        alerting_config_ids?: string[];
                        labels?: string[];
                        enumeration_ids?: string[];
                        apply_to_existing?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            id: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asset/policy/{policy_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an asset policy */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    policy_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                name: string;
                                policy_type: string;
                                policies: {
                                    [key: string]: unknown;
                                };
                                alerting_config_ids: string[];
                                labels: string[];
                                enumeration_ids: string[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                apply_to_existing: boolean;
                                created_at: string;
                                updated_at: string;
                                last_executed_at?: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete an asset policy */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    policy_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Update an asset policy (update_type append, the default, merges lists; replace overwrites) */
        patch: {
            parameters: {
                query?: {
                    update_type?: "append" | "replace";
                };
                header?: never;
                path: {
                    policy_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        /** @description alert, delete, set_label, remove_label */
                        policy_type?: string;
                        policies?: {
                            is_tech?: boolean;
                            is_favicon?: boolean;
                            is_new?: boolean;
                            is_screenshot?: boolean;
                            only_dns?: boolean;
                            only_ip?: boolean;
                            labels?: string;
                            host?: string;
                            port?: string;
                            status_code?: string;
                            content_length?: string;
                            title?: string;
                            cname?: string;
                            technologies?: string;
                            ip?: string;
                            domain?: string[];
                            /** Format: date */
                            start_date?: string;
                            /** Format: date */
                            end_date?: string;
                            custom_filter?: string;
                            search?: string;
                            enumeration_ids?: string[];
                            not_seen_for_days?: number;
                        };
                        alerting_config_ids?: string[];
                        labels?: string[];
                        enumeration_ids?: string[];
                        apply_to_existing?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            id: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/asset/policy/{policy_id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Actions an asset policy took */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    offset?: number;
                };
                header?: never;
                path: {
                    policy_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                events: {
                                    id: string;
                                    event_type: string;
                                    subject_type: string;
                                    subject_id: string;
                                    subject_name: string;
                                    asset_policy_id: string;
                                    status: string;
                                    error_message?: string;
                                    message_payload: {
                                        [key: string]: unknown;
                                    };
                                    created_at: string;
                                    updated_at: string;
                                }[];
                            };
                            total: number;
                            limit: number;
                            offset: number;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/enumeration/schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Enumeration rescan schedules of the team */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            schedules: {
                                enumeration_id: string;
                                scan_frequency: string;
                                schedule_last_run: string;
                                schedule_next_run: string;
                                start_time?: string;
                                hourly_frequency?: number;
                                custom_weekdays?: number[];
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Set the rescan schedule of an enumeration (times are UTC; frequencies as scan schedules) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        enumeration_id: string;
                        /** @description hourly, daily, weekly, monthly or custom */
                        scan_frequency: string;
                        /** @description UTC time of day HH:MM[:SS], or a UTC date-time */
                        start_time?: string;
                        /** @description hours between runs, 1-24 (hourly only) */
                        hourly_frequency?: number;
                        /** @description 0-6, 0 = Sunday (custom only) */
                        custom_weekdays?: number[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Remove the rescan schedule of an enumeration */
        delete: {
            parameters: {
                query: {
                    enumeration_id: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/domain/associated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Associated domains (hosted platform only)
         * @description Answers 404 with code hosted_only: this operation needs the hosted platform's own data, which a self-hosted instance does not have.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/leaks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Leaked credentials (hosted platform only)
         * @description Answers 404 with code hosted_only: this operation needs the hosted platform's own data, which a self-hosted instance does not have.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/leaks/stats/domain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A domain's leak statistics (hosted platform only)
         * @description Answers 404 with code hosted_only: this operation needs the hosted platform's own data, which a self-hosted instance does not have.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/leaks/stats/email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An email's leak statistics (hosted platform only)
         * @description Answers 404 with code hosted_only: this operation needs the hosted platform's own data, which a self-hosted instance does not have.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/leaks/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Export leaked credentials (hosted platform only)
         * @description Answers 404 with code hosted_only: this operation needs the hosted platform's own data, which a self-hosted instance does not have.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/leaks/info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A leak by id (hosted platform only)
         * @description Answers 404 with code hosted_only: this operation needs the hosted platform's own data, which a self-hosted instance does not have.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/leaks/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change leaks' status (hosted platform only)
         * @description Answers 404 with code hosted_only: this operation needs the hosted platform's own data, which a self-hosted instance does not have.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** Error */
        ErrorBody: {
            message: string;
            kind?: string;
            code?: string;
            error?: string;
            error_id?: string;
            param?: string;
            status?: number;
        };
        /** Message */
        MessageBody: {
            message: string;
        };
        /** Vulnerability */
        Vulnerability: {
            age_in_days?: number;
            assignee?: string;
            /** Format: date-time */
            cve_created_at?: string;
            /** Format: date-time */
            cve_updated_at?: string;
            cve_id?: string;
            cvss_metrics?: string;
            cvss_score?: number;
            epss_score?: number;
            epss_percentile?: number;
            is_kev?: boolean;
            is_vkev?: boolean;
            is_oss?: boolean;
            is_patch_available?: boolean;
            is_poc?: boolean;
            is_remote?: boolean;
            is_template?: boolean;
            is_auth?: boolean;
            is_exploit_seen?: boolean;
            kev?: {
                /** Format: date-time */
                added_date?: string;
                /** Format: date-time */
                due_date?: string;
                known_ransomware_campaign_use?: boolean;
                source?: string;
            }[];
            poc_count?: number;
            pocs?: {
                /** Format: date-time */
                added_at?: string;
                source?: string;
                url?: string;
            }[];
            scanner_template?: string;
            /** Format: date-time */
            poc_first_seen?: string;
            vuln_status?: string;
            citations?: {
                source?: string;
                tags?: string[];
                url?: string;
                /** Format: date-time */
                added_at?: string;
            }[];
            cwe?: string[];
            description?: string;
            impact?: string;
            name?: string;
            product?: string;
            remediation?: string;
            severity?: string;
            vendor?: string;
            requirement_type?: string;
            requirements?: string;
            template_coverage?: string;
            vulnerability_impact?: string[];
            vulnerability_type?: string;
            weaknesses?: {
                cwe_id?: string;
                cwe_name?: string;
            }[];
            category?: string;
            integration_id?: string;
            integration_type?: string;
            pull_request?: string;
            ref?: string;
            release_tag?: string;
            template_type?: string;
            score?: number;
            is_draft?: boolean;
            is_early?: boolean;
            is_github?: boolean;
            is_new?: boolean;
            is_svcteam?: boolean;
            directory?: string;
            filename?: string;
            uri?: string;
            author?: string[];
            tags?: string[];
            digest?: string;
            raw?: string;
            type?: string;
            metadata?: {
                [key: string]: unknown;
            };
            organizations?: string[];
            origin_template_id?: string;
            share_type?: string;
            ttl?: string;
            ttl_from?: string;
            users?: number[];
            /** AIMeta */
            ai_meta?: {
                model_used?: string;
                is_prompt_by_human?: boolean;
                is_template_by_human?: boolean;
                prompt?: string;
            };
            /** Classification */
            classification?: {
                "cve-id"?: string[];
                "cwe-id"?: string[];
                "cvss-metrics"?: string;
                "cvss-score"?: number;
                "epss-score"?: number;
                "epss-percentile"?: number;
                cpe?: string;
            };
            id?: string;
            user_id?: number;
            affected_products?: {
                cpe?: string[];
                product?: string;
                project_repos?: {
                    [key: string]: unknown;
                };
                projects?: string[];
                vendor?: string;
                product_category?: string;
                product_type?: string;
                industry?: string;
                tech_domain?: string;
                category?: string;
                deployment_model?: string;
                summary?: string;
            }[];
            /** Format: date-time */
            created_at?: string;
            /** Format: date-time */
            updated_at?: string;
            /** Format: date-time */
            template_created_at?: string;
            doc_id?: string;
            doc_type?: string;
            /** VulnExposure */
            exposure?: {
                max_hosts?: number;
                min_hosts?: number;
                values?: {
                    id?: string;
                    max_hosts?: number;
                    min_hosts?: number;
                    /** SearchEngineStats */
                    engine_a?: {
                        max_hosts?: number;
                        min_hosts?: number;
                        queries?: string[];
                    };
                    /** SearchEngineStats */
                    engine_b?: {
                        max_hosts?: number;
                        min_hosts?: number;
                        queries?: string[];
                    };
                }[];
            };
            /** BountyStats */
            bounty?: {
                rank?: number;
                reports?: number;
                delta_rank?: number;
                delta_reports?: number;
            };
            ntps?: number;
        };
        /** Agent */
        Agent: {
            id: string;
            name: string;
            tags: string[];
            networks: string[];
            version: string;
            /** @description heard from within the lease time (VIGIL_AGENT_LEASE_SECONDS) */
            online: boolean;
            /** @description the agent said it found Chromium at its start: chunks of scans with headless templates go to it */
            headless: boolean;
            /** @description ISO time of its last request; empty when never seen */
            last_seen: string;
            running_chunks: number;
            key_prefix: string;
            created_at: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
