package registry

import "context"

// Config returns the compatibility level of subject ("" for the global
// one): BACKWARD, FORWARD_TRANSITIVE, NONE, ... A subject without a level
// of its own has the global one, which the registry gives instead or
// (Confluent Platform 7 and later) answers with an error matching
// ErrSubjectCompatibilityNotConfigured.
func (c *Client) Config(ctx context.Context, subject string) (string, error) {
	path := "/config"
	if subject != "" {
		path += subjectPath(subject)[len("/subjects"):]
	}
	var out struct {
		Level  string `json:"compatibilityLevel"`
		Level2 string `json:"compatibility"`
	}
	if err := c.do(ctx, "GET", path, nil, &out); err != nil {
		return "", err
	}
	if out.Level == "" {
		return out.Level2, nil
	}
	return out.Level, nil
}

// SetConfig sets the compatibility level of subject ("" for the global
// one).
func (c *Client) SetConfig(ctx context.Context, subject, level string) error {
	path := "/config"
	if subject != "" {
		path += subjectPath(subject)[len("/subjects"):]
	}
	return c.do(ctx, "PUT", path, map[string]string{"compatibility": level}, nil)
}

// Mode returns the mode of subject ("" for the global one): READWRITE,
// READONLY, IMPORT.
func (c *Client) Mode(ctx context.Context, subject string) (string, error) {
	path := "/mode"
	if subject != "" {
		path += subjectPath(subject)[len("/subjects"):]
	}
	var out struct {
		Mode string `json:"mode"`
	}
	return out.Mode, c.do(ctx, "GET", path, nil, &out)
}

// SetMode sets the mode of subject ("" for the global one).
func (c *Client) SetMode(ctx context.Context, subject, mode string) error {
	path := "/mode"
	if subject != "" {
		path += subjectPath(subject)[len("/subjects"):]
	}
	return c.do(ctx, "PUT", path, map[string]string{"mode": mode}, nil)
}
