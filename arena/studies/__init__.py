"""Human baseline studies: a controlled set of matches people play through a share link, and the baseline they give."""
